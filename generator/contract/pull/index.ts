export const runPull = async (_o: unknown): Promise<{summary:string}> => { throw new Error("x"); };
