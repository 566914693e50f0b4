export const runBreaking = async (_o: unknown): Promise<{json:string;text:string;breaking:boolean}> => { throw new Error("x"); };
