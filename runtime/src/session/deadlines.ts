/**
 * One timer per session for every request deadline, instead of a timer per request: requests
 * only record a deadline; the timer is armed for the earliest one and, when it fires, expires
 * what is due and re-arms for the next. It keeps the event loop alive only while requests are
 * pending. Going idle does not unref it at once: the check runs once the current run of
 * callbacks and microtasks is over (process.nextTick), so a burst of calls made back to back
 * (each one idle for an instant between its response and the next request) toggles the timer
 * once, not twice per call; the loop never waits on it while nothing is pending.
 */
export interface Expiring {
  readonly deadline: number;
}

export class Deadlines<T extends Expiring> {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private armedFor = Infinity;
  private refed = false;
  private checking = false;
  private readonly fireBound = () => this.fire();
  private readonly checkBound = () => this.check();

  constructor(
    private readonly items: () => Iterable<T>,
    private readonly expire: (item: T) => void,
    /** Whether nothing is pending now (checked before the timer stops holding the loop). */
    private readonly isIdle: () => boolean,
  ) {}

  /** A request with this deadline is now pending. */
  add(deadline: number): void {
    if (deadline < this.armedFor) this.arm(deadline);
    else if (!this.refed && this.timer !== undefined) {
      this.timer.ref?.();
      this.refed = true;
    }
  }

  /** Nothing is pending any more: let the loop go, unless a request is pending again by then. */
  idle(): void {
    if (this.checking || !this.refed || this.timer === undefined) return;
    this.checking = true;
    later(this.checkBound);
  }

  private check(): void {
    this.checking = false;
    if (this.timer !== undefined && this.refed && this.isIdle()) {
      this.timer.unref?.();
      this.refed = false;
    }
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Infinity;
  }

  private arm(deadline: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.armedFor = deadline;
    this.timer = setTimeout(this.fireBound, Math.max(0, deadline - Date.now()));
    this.refed = true;
  }

  private fire(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = Date.now();
    let next = Infinity;
    const due: T[] = [];
    for (const item of this.items()) {
      const d = item.deadline;
      if (d <= now) due.push(item);
      else if (d < next) next = d;
    }
    for (const item of due) this.expire(item);
    if (next !== Infinity) this.arm(next);
  }
}

/** After the current callback and its microtasks (Node, Deno, Bun); at once where there is no such queue. */
const nextTick = (globalThis as { process?: { nextTick?: (f: () => void) => void } }).process?.nextTick;
const later: (f: () => void) => void = typeof nextTick === "function" ? (f) => nextTick(f) : (f) => f();
