/**
 * One request this side sent and awaits. It is its own abort listener and its timer callback
 * gets it as an argument, so a request costs no closures beyond its promise.
 */
import type { Progress, RequestOptions, Result } from "./types.js";

export interface PendingOwner {
  expire(request: PendingRequest, total: boolean): void;
  abort(request: PendingRequest): void;
}

function onTimer(request: PendingRequest): void {
  request.timer = undefined;
  const total = request.maxTotal > 0 && Date.now() - request.startedAt >= request.maxTotal;
  request.owner.expire(request, total);
}

export class PendingRequest {
  timer: ReturnType<typeof setTimeout> | undefined;
  readonly onprogress: ((progress: Progress) => void) | undefined;
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number;
  readonly maxTotal: number;
  readonly resetOnProgress: boolean;
  readonly skipValidation: boolean;
  startedAt = 0;
  /** Highest progress value seen, to drop out-of-order or repeated notifications. */
  lastProgress = -Infinity;

  constructor(
    readonly owner: PendingOwner,
    readonly id: number,
    readonly method: string,
    readonly resolve: (result: Result) => void,
    readonly reject: (error: unknown) => void,
    options: RequestOptions | undefined,
    defaultTimeout: number,
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

  /** Arm the timer (and the abort listener); call once the request is in the pending map. */
  arm(): void {
    if (this.timeoutMs || this.maxTotal) {
      this.startedAt = Date.now();
      this.setTimer(this.timeoutMs);
    }
    this.signal?.addEventListener("abort", this, { once: true });
  }

  /** Restart the timeout after progress; returns false when the maximum total has passed. */
  touch(): boolean {
    if (!this.resetOnProgress || !this.timeoutMs) return true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.maxTotal && Date.now() - this.startedAt >= this.maxTotal) return false;
    this.setTimer(this.timeoutMs);
    return true;
  }

  /** Release the timer and listener; the request is finished either way. */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.signal?.removeEventListener("abort", this);
  }

  handleEvent(): void {
    this.owner.abort(this);
  }

  private setTimer(ms: number): void {
    let wait = ms;
    if (this.maxTotal) {
      const left = this.maxTotal - (Date.now() - this.startedAt);
      if (!wait || left < wait) wait = Math.max(0, left);
    }
    this.timer = setTimeout(onTimer, wait, this);
  }
}
