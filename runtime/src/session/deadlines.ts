/**
 * One timer per session for every request deadline, instead of a timer per request: requests
 * only record a deadline; the timer is armed for the earliest one and, when it fires, expires
 * what is due and re-arms for the next. It keeps the event loop alive only while requests are
 * pending (it is unref'd, not cleared, when the session goes idle, so a sequence of calls does
 * not create and destroy a timer each).
 */
export interface Expiring {
  readonly deadline: number;
}

export class Deadlines<T extends Expiring> {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private armedFor = Infinity;
  private refed = false;
  private readonly fireBound = () => this.fire();

  constructor(
    private readonly items: () => Iterable<T>,
    private readonly expire: (item: T) => void,
  ) {}

  /** A request with this deadline is now pending. */
  add(deadline: number): void {
    if (deadline < this.armedFor) this.arm(deadline);
    else if (!this.refed && this.timer !== undefined) {
      this.timer.ref?.();
      this.refed = true;
    }
  }

  /** Nothing is pending any more. */
  idle(): void {
    if (this.timer !== undefined && this.refed) {
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
