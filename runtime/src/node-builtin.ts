/**
 * A Node built-in module, loaded when first asked for rather than imported. Through
 * `process.getBuiltinModule` (Node ≥ 20.16, Bun, Deno), reached via `globalThis`: no `node:`
 * import and no free `process` in the module, so the files that share code with the stdio and
 * node:http paths (the runtime's core chunk among them) also load on workerd and in browsers,
 * where only those paths would fail, and with this message.
 */
type GetBuiltin = (id: string) => unknown;

export function nodeBuiltin<T>(id: string): T {
  const get = (globalThis as { process?: { getBuiltinModule?: GetBuiltin } }).process?.getBuiltinModule;
  if (typeof get !== "function") throw new Error(`${id} is not available on this host (Node 20.16 or later, Bun or Deno has it)`);
  return get(id) as T;
}
