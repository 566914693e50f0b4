/**
 * A byte budget for the peers' running requests. Counting requests does not bound the memory they
 * hold: a request keeps its params while it runs (a listen for as long as it is open), and a
 * 4 MiB body of small objects parses into some 80 MiB. So each request is charged about what its
 * message takes once parsed (MessageContext.bytes, estimated by the transport that read it) from
 * dispatch until it is answered or cancelled, against its session's share and its server's.
 */
import { MAX_RUNNING_BYTES, MAX_RUNNING_BYTES_PER_SESSION } from "../limits.js";

export interface RunningBytesLimits {
  /** All sessions of the server together (default 512 MiB). */
  max?: number;
  /** One session: a connection, both eras' requests on it (default 64 MiB). */
  perSession?: number;
}

/** Which share a refused request would have overdrawn (`data.limit` is `runningBytes.` + it). */
export type RunningBytesLimit = "perSession" | "max";

/** The budget of a whole server; each connection draws on it through a share of its own (`session()`). */
export class RunningBytes {
  /** Bytes charged now, every session together. */
  used = 0;
  readonly max: number;
  readonly perSession: number;

  constructor(limits: RunningBytesLimits = {}) {
    this.max = positive("max", limits.max, MAX_RUNNING_BYTES);
    this.perSession = positive("perSession", limits.perSession, MAX_RUNNING_BYTES_PER_SESSION);
  }

  /** A new session's share. */
  session(): SessionBytes {
    return new SessionBytes(this);
  }
}

export class SessionBytes {
  /** Bytes charged now to this session's running requests. */
  used = 0;

  constructor(readonly server: RunningBytes) {}

  /** The share `bytes` more would overdraw (the session's first), or undefined when they fit. */
  over(bytes: number): RunningBytesLimit | undefined {
    if (this.used + bytes > this.server.perSession) return "perSession";
    if (this.server.used + bytes > this.server.max) return "max";
    return undefined;
  }

  charge(bytes: number): void {
    this.used += bytes;
    this.server.used += bytes;
  }

  release(bytes: number): void {
    this.used -= bytes;
    this.server.used -= bytes;
  }
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`runningBytes.${name} must be a positive integer, got ${String(value)}`);
  return value;
}
