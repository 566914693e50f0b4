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

/** What a server does with a change another instance raised (validated by the bus first). */
export interface ChangeTarget {
  listChanged(list: ChangeList): void;
  resourceUpdated(uri: string): void;
  taskChanged(task: Params): void;
  taskCancelled(taskId: string): void;
  taskInput(taskId: string, responses: Readonly<Record<string, unknown>>): void;
}

/**
 * One server instance's attachment to the bus (`@mcpgen/runtime/redis`'s RedisChangeBus). A server
 * without one delivers what it raises to its own sessions and listens only, which is all one
 * process needs: there is no in-memory bus.
 */
export interface ChangeBus {
  /** Send `change` to every other attachment; rejects when it cannot be sent (the bus is down). */
  publish(change: Change): Promise<void>;
  /** Deliver what other attachments publish to `target`; returns the detach. */
  attach(target: ChangeTarget): () => void;
}
