/**
 * A Node built-in module, loaded when a Node-only feature is used (spawning a stdio server) rather
 * than imported: a static `import "node:…"` would stay in every bundle of the runtime's core,
 * Workers' included, even where nothing uses it. process.getBuiltinModule exists from Node 20.16
 * and 22.3 (not in 21, nor 22.0 to 22.2): hence both packages' `engines`, "^20.16.0 || >=22.3.0".
 */
export function nodeBuiltin<T>(id: string): T {
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (typeof get !== "function")
    throw new Error(`${id} is not available: this needs Node.js 20.16+ or 22.3+ (process.getBuiltinModule)`);
  return get(id) as T;
}
