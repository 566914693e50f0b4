/**
 * A byte budget for the peers' running requests. Counting requests does not bound the memory they
 * hold: a request keeps its params while it runs (a listen for as long as it is open), and a
 * 4 MiB body of small objects parses into some 80 MiB. So each request is charged about what its
 * message takes once parsed (MessageContext.bytes, estimated by the transport that read it) from
 * dispatch until it is answered or cancelled, against its session's share, its principal's (one
 * client opening many sessions must not take the server's whole pool) and its server's.
 */
import { MAX_RUNNING_BYTES, MAX_RUNNING_BYTES_PER_SESSION, RUNNING_BYTES_PRINCIPAL_SHARE } from "../limits.js";
import { principalKey, type AuthInfo } from "../auth/principal.js";

export interface RunningBytesLimits {
  /** All sessions of the server together (default 512 MiB). */
  max?: number;
  /** One session: a connection, both eras' requests on it (default 64 MiB). */
  perSession?: number;
  /**
   * One principal (`principalKey` of the request's `ctx.auth`) across all its sessions; without a
   * principal the session is its own (default a quarter of `max`, 128 MiB, but at least `perSession`).
   */
  perPrincipal?: number;
}

/** Which share a refused request would have overdrawn (`data.limit` is `runningBytes.` + it). */
export type RunningBytesLimit = "perSession" | "perPrincipal" | "max";

/** The budget of a whole server; each connection draws on it through a share of its own (`session()`). */
export class RunningBytes {
  /** Bytes charged now, every session together. */
  used = 0;
  readonly max: number;
  readonly perSession: number;
  readonly perPrincipal: number;
  /** @internal Bytes charged now per principal (`principalKey`); one with nothing running is absent, so this holds only what runs. */
  readonly principals = new Map<string, number>();

  constructor(limits: RunningBytesLimits = {}) {
    this.max = positive("max", limits.max, MAX_RUNNING_BYTES);
    this.perSession = positive("perSession", limits.perSession, MAX_RUNNING_BYTES_PER_SESSION);
    // A principal's default share is never below one session's: a lone session keeps its own share.
    this.perPrincipal = positive(
      "perPrincipal",
      limits.perPrincipal,
      Math.max(this.perSession, Math.floor(this.max * RUNNING_BYTES_PRINCIPAL_SHARE)),
    );
  }

  /** A new session's share. */
  session(): SessionBytes {
    return new SessionBytes(this);
  }

  /** Bytes charged now to the running requests of the principal `auth` names (as `ctx.auth`), all its sessions together. */
  principalUsed(auth: Pick<AuthInfo, "clientId" | "subject">): number {
    return this.principals.get(principalKey(auth)!) ?? 0;
  }
}

export class SessionBytes {
  /** Bytes charged now to this session's running requests. */
  used = 0;

  constructor(readonly server: RunningBytes) {}

  /**
   * The share `bytes` more would overdraw, the session's first, then its principal's (`principal`:
   * a `principalKey`; without one the session is its own principal), then the server's; undefined
   * when they fit.
   */
  over(bytes: number, principal?: string): RunningBytesLimit | undefined {
    const s = this.server;
    if (this.used + bytes > s.perSession) return "perSession";
    if ((principal === undefined ? this.used : (s.principals.get(principal) ?? 0)) + bytes > s.perPrincipal)
      return "perPrincipal";
    if (s.used + bytes > s.max) return "max";
    return undefined;
  }

  /** `principal`: the one `over` was asked about; `release` (a negative charge) must be given the same. */
  charge(bytes: number, principal?: string): void {
    const s = this.server;
    this.used += bytes;
    s.used += bytes;
    if (principal === undefined) return;
    const n = (s.principals.get(principal) ?? 0) + bytes;
    if (n > 0) s.principals.set(principal, n);
    else s.principals.delete(principal);
  }

  release(bytes: number, principal?: string): void {
    this.charge(-bytes, principal);
  }
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new TypeError(`runningBytes.${name} must be a positive integer, got ${String(value)}`);
  return value;
}
