export const runVerify = async (_o: unknown): Promise<{json:string;text:string;ok:boolean}> => { throw new Error("x"); };
