/**
 * `setImmediate` where the host has it (Node, Bun, Deno): after the I/O callbacks already due.
 * workerd and browsers have none; a zero timer is the nearest turn there. Read through
 * `globalThis` so no free Node global reaches a Worker bundle.
 */
const immediate = (globalThis as { setImmediate?: (f: () => void) => unknown }).setImmediate;

export const afterIo: (f: () => void) => void = typeof immediate === "function" ? (f) => void immediate(f) : (f) => void setTimeout(f, 0);
