/**
 * The seam between the instances of one server behind a load balancer: what one instance raises
 * that others must act on. Change notifications (list_changed, resources/updated, task status)
 * reach the legacy sessions and `subscriptions/listen` streams every instance holds, and a
 * `tasks/cancel` or `tasks/update` answered by one instance reaches the instance running the task.
 *
 * Delivery is at most once and unordered across publishers: every change here is a hint whose
 * loss a peer recovers from (it re-lists, re-reads, polls `tasks/get`; a cancelled task is
 * `cancelled` in the shared store whatever its run does). An attachment never hears its own
 * changes back: the server that raised one has delivered it locally already.
 */
import type { Params } from "../session/types.js";
import type { TaskRelay } from "../tasks/modern.js";

export type ChangeList = "tools" | "prompts" | "resources";

export type Change =
  | { readonly kind: "listChanged"; readonly list: ChangeList }
  | { readonly kind: "resourceUpdated"; readonly uri: string }
  /** A 2026-07-28 task changed: the DetailedTask `notifications/tasks` carries. */
  | { readonly kind: "task"; readonly task: Params }
  /** The task was cancelled in the store: the instance running it stops the run. */
  | { readonly kind: "taskCancel"; readonly taskId: string }
  /** Answers to a task's input requests, for the instance that holds the run. */
  | { readonly kind: "taskInput"; readonly taskId: string; readonly responses: Readonly<Record<string, unknown>> };

/** One server instance's attachment to the bus. */
export interface ChangeBus {
  /** Send `change` to every other attachment; rejects when it cannot be sent (the bus is down). */
  publish(change: Change): Promise<void>;
  /** Hear what other attachments publish; returns the unsubscribe. */
  subscribe(listener: (change: Change) => void): () => void;
  /** Detach (an McpServer does not close a bus it was given). */
  close?(): void | Promise<void>;
}

/**
 * The in-process bus: several servers in one process (tests, a worker per tenant) attached to one
 * hub hear each other. Changes are delivered on a later microtask, as a remote bus would.
 */
export class MemoryChangeHub {
  private readonly attachments = new Set<Set<(change: Change) => void>>();

  attach(): ChangeBus {
    const own = new Set<(change: Change) => void>();
    this.attachments.add(own);
    return {
      publish: async (change) => {
        // A copy, as a wire would make: a listener must not see the publisher's objects.
        const text = JSON.stringify(change);
        await Promise.resolve();
        for (const other of this.attachments) {
          if (other === own) continue;
          for (const l of other) l(JSON.parse(text) as Change);
        }
      },
      subscribe: (listener) => {
        own.add(listener);
        return () => void own.delete(listener);
      },
      close: () => void this.attachments.delete(own),
    };
  }
}

/** A task's cancel and input, relayed over the bus to the instance running it. */
export function taskRelay(bus: ChangeBus): TaskRelay {
  return {
    cancel: (taskId) => bus.publish({ kind: "taskCancel", taskId }),
    input: (taskId, responses) => bus.publish({ kind: "taskInput", taskId, responses }),
  };
}
