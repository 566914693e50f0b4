/** Test plumbing: a raw peer that sends arbitrary messages and records what it receives, bounded waits. */
import { createMemoryTransportPair, type MemoryTransport } from "@mcpgen/runtime";

export interface RawPeer {
  transport: MemoryTransport;
  send(message: unknown): Promise<void>;
  /** The next message received (fails after `ms`). */
  next(ms?: number): Promise<any>;
  /** Messages received and not yet taken by `next`. */
  inbox: any[];
}

export function rawPeer(transport: MemoryTransport): RawPeer {
  const inbox: any[] = [];
  const waiters: ((m: any) => void)[] = [];
  transport.onmessage = (m) => {
    const w = waiters.shift();
    if (w) w(m);
    else inbox.push(m);
  };
  void transport.start();
  return {
    transport,
    inbox,
    send: (m) => transport.send(m as never),
    next(ms = 1000) {
      if (inbox.length) return Promise.resolve(inbox.shift());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no message within ${ms} ms`));
        }, ms);
        const waiter = (m: any) => {
          clearTimeout(timer);
          resolve(m);
        };
        waiters.push(waiter);
      });
    },
  };
}

/** A connected pair: [side under test's transport, raw peer]. */
export function withRawPeer(): [MemoryTransport, RawPeer] {
  const [a, b] = createMemoryTransportPair();
  return [a, rawPeer(b)];
}

/** Let queued microtasks and one macrotask turn run. */
export function settle(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Resolves with the rejection reason, fails if the promise fulfils. */
export async function rejection(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}
