export { commitOutput, type CommitResult } from "./commit.js";
export { compareOutput, isClean, listFiles, type OutputDiff } from "./compare.js";
export { cacheKey, readCache, writeCache, type CacheEntry } from "./cache.js";
