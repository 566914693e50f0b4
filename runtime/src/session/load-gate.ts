/**
 * Holds inbound messages back, in order, while the protocol revision one of them needs is loading
 * (bindings load on first use, see lazy-binding.ts). Messages that arrive meanwhile queue behind
 * it, so a connection never sees them reordered; the queue is bounded.
 */
import type { MessageContext } from "../transport.js";

type Held = [message: unknown, context: MessageContext | undefined];

export class LoadGate {
  private queue: Held[] | undefined;
  /** Waiting for the queue to empty (whenOpen); made on first need. */
  private opening: (() => void)[] | undefined;

  constructor(
    /** What must load before `message` can be handled; undefined when nothing. */
    private readonly need: (message: unknown) => Promise<void> | undefined,
    private readonly deliver: (message: unknown, context: MessageContext | undefined) => void,
    /** `message` cannot be handled: its revision failed to load, or the queue is full. */
    private readonly refuse: (message: unknown, context: MessageContext | undefined, error: Error) => void,
    private readonly limit: number,
  ) {}

  receive(message: unknown, context: MessageContext | undefined): void {
    if (this.queue !== undefined) return this.enqueue(message, context);
    const loading = this.need(message);
    if (loading === undefined) return this.deliver(message, context);
    this.hold(message, context, loading);
  }

  /**
   * Nothing is held: the owner may ask `need` and deliver itself (direct calls, which the
   * compiler can inline, instead of calls through the closures), then `hold` what must wait.
   */
  get open(): boolean {
    return this.queue === undefined;
  }

  /** Hold back `message` (and what follows) until `loading` settles; `need(message)` returned it. */
  hold(message: unknown, context: MessageContext | undefined, loading: Promise<void>): void {
    if (this.queue !== undefined) return this.enqueue(message, context);
    this.queue = [[message, context]];
    this.wait(loading);
  }

  private enqueue(message: unknown, context: MessageContext | undefined): void {
    if (this.queue!.length >= this.limit)
      return this.refuse(
        message,
        context,
        new Error(`more than ${this.limit} messages arrived while a protocol revision was loading`),
      );
    this.queue!.push([message, context]);
  }

  /** Resolves once nothing is held any more (at once when nothing is). */
  whenOpen(): Promise<void> {
    if (this.queue === undefined) return Promise.resolve();
    return new Promise<void>((resolve) => (this.opening ??= []).push(resolve));
  }

  /** Drop whatever is held (the connection closed). */
  clear(): void {
    if (this.queue !== undefined) this.queue.length = 0;
  }

  private wait(loading: Promise<void>): void {
    loading.then(
      () => this.drain(),
      (e: Error) => {
        // Only the message that needed the revision is refused; the rest may not need it.
        const first = this.queue?.shift();
        if (first !== undefined) this.refuse(first[0], first[1], e);
        this.drain();
      },
    );
  }

  private drain(): void {
    const queue = this.queue;
    if (queue === undefined) return;
    for (let i = 0; i < queue.length; i++) {
      const [message, context] = queue[i]!;
      const loading = this.need(message);
      if (loading !== undefined) {
        queue.splice(0, i);
        return this.wait(loading);
      }
      this.deliver(message, context);
    }
    this.queue = undefined;
    const opening = this.opening;
    if (opening !== undefined) {
      this.opening = undefined;
      for (const resolve of opening) resolve();
    }
  }
}
