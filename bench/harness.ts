import type { Variant } from "./workload.js";

/** One connected client/server pair of one implementation over one transport. */
export interface Harness {
  /** One tools/call of `add`; resolves with the sum read back from the result. */
  call(a: number, b: number): Promise<number>;
  /** The server's child process, when the server runs in one (its CPU and RSS are read from /proc). */
  readonly serverPid?: number;
  /** The protocol revision the client negotiated, where the implementation chooses it itself. */
  readonly revision?: string;
  close(): Promise<void>;
}

export interface HarnessOptions {
  variant: Variant;
}

/** A stdio connection started from scratch, for spawn→initialized timing and idle RSS. */
export interface SpawnedSession {
  readonly serverPid: number;
  close(): Promise<void>;
}

/** A baseline that exists only in process (the raw pair without JSON) leaves the others out. */
export interface Implementation {
  inproc(options: HarnessOptions): Promise<Harness>;
  stdio?(options: HarnessOptions): Promise<Harness>;
  http?(options: HarnessOptions): Promise<Harness>;
  /** Spawns the stdio server and resolves once the client has sent `notifications/initialized`. */
  spawnInitialized?(options: HarnessOptions): Promise<SpawnedSession>;
}
