/**
 * One request this side sent and awaits. It is its own abort listener and records only a
 * deadline (the session's single timer enforces it), so a request costs no closures or timers
 * beyond its promise. A caller's ResponseReader runs where the response is handled, so reading
 * the result costs no further promise or microtask.
 */
import type { Progress, RequestOptions, ResponseReader, Result } from "./types.js";

export interface PendingOwner {
  abort(request: PendingRequest): void;
}

function unset(): void {
  throw new Error("internal: a request's promise was settled before it was made");
}

export class PendingRequest {
  readonly onprogress: ((progress: Progress) => void) | undefined;
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number;
  readonly maxTotal: number;
  readonly resetOnProgress: boolean;
  readonly skipValidation: boolean;
  /** When the request fails if unanswered (ms since epoch); Infinity without a timeout. */
  deadline = Infinity;
  // Undefined rather than ±Infinity until used: a number field holds a boxed double, one more
  // allocation per request, and most requests have neither a maximum total nor progress.
  private totalDeadline: number | undefined = undefined;
  /** Highest progress value seen, to drop out-of-order or repeated notifications. */
  lastProgress: number | undefined = undefined;
  /** The request's promise, handed over by its executor (settleWith) right after construction. */
  private resolve: (result: unknown) => void = unset;
  private reject: (error: unknown) => void = unset;

  constructor(
    readonly owner: PendingOwner,
    readonly id: number,
    readonly method: string,
    options: RequestOptions | undefined,
    defaultTimeout: number,
    private readonly reader: ResponseReader<unknown> | undefined,
  ) {
    this.onprogress = options?.onprogress;
    this.signal = options?.signal;
    const t = options?.timeout ?? defaultTimeout;
    this.timeoutMs = t > 0 && t !== Infinity ? t : 0;
    const max = options?.maxTotalTimeout ?? 0;
    this.maxTotal = max > 0 && max !== Infinity ? max : 0;
    this.resetOnProgress = options?.resetTimeoutOnProgress === true;
    this.skipValidation = options?.skipValidation === true;
  }

  /** @internal The settling functions of this request's promise (its executor calls this). */
  settleWith(resolve: (result: unknown) => void, reject: (error: unknown) => void): void {
    this.resolve = resolve;
    this.reject = reject;
  }

  /** Start the clock (and listen to the signal); returns the deadline. */
  arm(): number {
    if (this.timeoutMs || this.maxTotal) {
      const now = Date.now();
      const total = this.maxTotal ? (this.totalDeadline = now + this.maxTotal) : Infinity;
      this.deadline = this.timeoutMs ? Math.min(now + this.timeoutMs, total) : total;
    }
    this.signal?.addEventListener("abort", this, { once: true });
    return this.deadline;
  }

  /** Restart the timeout after progress (deadlines only move later); false once the maximum total has passed. */
  touch(): boolean {
    if (!this.resetOnProgress || !this.timeoutMs) return true;
    const now = Date.now();
    const total = this.totalDeadline ?? Infinity;
    if (now >= total) return false;
    this.deadline = Math.min(now + this.timeoutMs, total);
    return true;
  }

  /** Whether the maximum total (rather than the per-request timeout) ended the request. */
  hitTotal(now: number): boolean {
    return this.maxTotal > 0 && now >= (this.totalDeadline ?? Infinity);
  }

  /** The request's outcome: a result (read by the reader, if any). */
  succeed(result: Result): void {
    const reader = this.reader;
    if (reader === undefined) return this.resolve(result);
    try {
      this.resolve(reader.ok(result));
    } catch (e) {
      this.reject(e);
    }
  }

  /** The request's outcome: a failure (which the reader may turn into a value). */
  fail(error: unknown): void {
    const reader = this.reader;
    if (reader?.fail === undefined) return this.reject(error);
    try {
      this.resolve(reader.fail(error));
    } catch (e) {
      this.reject(e);
    }
  }

  /** Release the abort listener; the request is finished either way. */
  dispose(): void {
    this.signal?.removeEventListener("abort", this);
  }

  handleEvent(): void {
    this.owner.abort(this);
  }
}
