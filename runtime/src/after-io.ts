/**
 * node's setImmediate where the host has it (after pending I/O callbacks, before timers), a zero
 * timeout elsewhere (workerd, Deno and browsers have no setImmediate): the fetch entry's closure
 * names no Node global.
 */
type Immediate = <A>(f: (a: A) => void, a: A) => unknown;

const immediate = (globalThis as { setImmediate?: Immediate }).setImmediate;

export function afterIo<A>(f: (a: A) => void, a: A): void {
  if (immediate !== undefined) immediate(f, a);
  else setTimeout(f, 0, a);
}
