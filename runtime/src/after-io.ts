/**
 * node's setImmediate where the host has it (after pending I/O callbacks, before timers), a zero
 * timeout elsewhere (workerd, Deno and browsers have no setImmediate): the fetch entry's closure
 * names no Node global.
 */
type Immediate = <A>(f: (a: A) => void, a: A) => unknown;

const immediate = (globalThis as { setImmediate?: Immediate }).setImmediate;

/**
 * Whether afterIo runs after the I/O turn itself (setImmediate), not as a timer: workerd drops a
 * request's timers when the request ends, so there a callback scheduled for one request's sake
 * must not carry another's work.
 */
export const afterIoIsImmediate = immediate !== undefined;

export function afterIo<A>(f: (a: A) => void, a: A): void {
  if (immediate !== undefined) immediate(f, a);
  else setTimeout(f, 0, a);
}
