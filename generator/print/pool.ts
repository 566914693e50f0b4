import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { McpgenError } from "../errors.js";
import { formatSource } from "./format.js";
import type { FormatReply, FormatRequest } from "./format-worker.js";

/**
 * Prettier is most of the cost of a cold run (the ajv validator files are large), so formatting
 * runs on worker threads, one per core, while this thread runs the emitters. Without a warmed
 * pool, small jobs stay in this thread. The result does not depend on which thread formatted what.
 */
const inThreadLimit = 64 * 1024;

interface Pending {
  resolve: (contents: string) => void;
  reject: (e: Error) => void;
  path: string;
}

let workers: Worker[] = [];
const load = new Map<Worker, number>();
const pending = new Map<number, Pending>();
let nextId = 0;

function spawn(): Worker {
  const worker = new Worker(new URL("./format-worker.js", import.meta.url));
  worker.on("message", (reply: FormatReply) => {
    const job = pending.get(reply.id);
    if (!job) return;
    pending.delete(reply.id);
    load.set(worker, (load.get(worker) ?? 1) - 1);
    if (reply.ok) job.resolve(reply.contents);
    else job.reject(parseError(job.path, reply.message));
  });
  worker.on("error", (e) => {
    for (const [id, job] of pending) {
      pending.delete(id);
      job.reject(e);
    }
  });
  worker.unref();
  load.set(worker, 0);
  return worker;
}

function parseError(path: string, message: string): McpgenError {
  // An emitter produced code that does not parse: a generator bug, reported with the file name.
  return new McpgenError(`emitted code does not parse: ${message.split("\n")[0]}`, { file: path });
}

function ensureWorkers(): void {
  if (workers.length === 0) {
    workers = Array.from({ length: Math.max(1, Math.min(4, availableParallelism())) }, spawn);
  }
}

/**
 * Starts the workers and has each load prettier and format a trivial file, so that cost overlaps
 * with the emitters running in this thread.
 */
export function warmFormatPool(): void {
  const fresh = workers.length === 0;
  ensureWorkers();
  if (!fresh) return;
  for (const w of workers)
    w.postMessage({ id: -1, path: "warm.ts", contents: "export const warm = {a:1};\n" } satisfies FormatRequest);
}

export async function formatInPool(path: string, contents: string): Promise<string> {
  if (workers.length === 0 && contents.length <= inThreadLimit) {
    try {
      return await formatSource(path, contents);
    } catch (e) {
      throw parseError(path, (e as Error).message);
    }
  }
  ensureWorkers();
  const worker = workers.reduce((a, b) => ((load.get(a) ?? 0) <= (load.get(b) ?? 0) ? a : b));
  const id = nextId++;
  load.set(worker, (load.get(worker) ?? 0) + 1);
  worker.ref();
  try {
    return await new Promise<string>((resolve, reject) => {
      pending.set(id, { resolve, reject, path });
      worker.postMessage({ id, path, contents } satisfies FormatRequest);
    });
  } finally {
    if ((load.get(worker) ?? 0) === 0) worker.unref();
  }
}

/** Stops the workers (they are unref'd when idle, so this only speeds up exit). */
export async function closeFormatPool(): Promise<void> {
  const all = workers;
  workers = [];
  load.clear();
  await Promise.all(all.map((w) => w.terminate()));
}
