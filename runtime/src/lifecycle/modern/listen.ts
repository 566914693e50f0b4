/**
 * `subscriptions/listen` (lifecycle.md §12.6): the open listens of a server, each with the subset
 * of its filter the server honours, fed by the server's change notifications. A listen lives as
 * long as its request: cancelling it (stdio `notifications/cancelled`, HTTP stream close) or
 * closing the connection removes it, and with it everything it held.
 */
import { ErrorCode } from "../../jsonrpc.js";
import { McpError } from "../../errors.js";
import type { Params } from "../../session/types.js";
import { hasCapability } from "../legacy/capabilities.js";
import type { Capabilities } from "../legacy/types.js";

import { TASKS_EXTENSION, hasExtension, type SubscriptionFilter } from "./wire.js";
export type { SubscriptionFilter };

/** Most resource URIs one listen may subscribe to. */
export const MAX_RESOURCE_SUBSCRIPTIONS = 1024;
/** Most listens open at once on one server (each holds a request, and on HTTP a connection). */
export const MAX_LISTENS = 10_000;

const LIST_FLAGS = [
  ["toolsListChanged", "tools.listChanged", "notifications/tools/list_changed"],
  ["promptsListChanged", "prompts.listChanged", "notifications/prompts/list_changed"],
  ["resourcesListChanged", "resources.listChanged", "notifications/resources/list_changed"],
] as const;

/** Most task ids one listen may follow. */
export const MAX_TASK_IDS = 1024;

/**
 * The part of a requested filter this server honours (only what its capabilities declare);
 * `taskIds` needs the client to declare the tasks extension on the listen (-32021 otherwise).
 */
export function honouredFilter(requested: unknown, caps: Capabilities, clientCaps?: Capabilities): SubscriptionFilter {
  if (typeof requested !== "object" || requested === null || Array.isArray(requested)) {
    throw new McpError(ErrorCode.InvalidParams, "Invalid params: notifications must be a SubscriptionFilter object", { pointer: "/params/notifications" });
  }
  const r = requested as Record<string, unknown>;
  const out: SubscriptionFilter = {};
  for (const [flag, cap] of LIST_FLAGS) if (r[flag] === true && hasCapability(caps, cap)) out[flag] = true;
  const uris = r.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris) || !uris.every((u) => typeof u === "string")) {
      throw new McpError(ErrorCode.InvalidParams, "Invalid params: resourceSubscriptions must be an array of URIs", { pointer: "/params/notifications/resourceSubscriptions" });
    }
    if (uris.length > MAX_RESOURCE_SUBSCRIPTIONS) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: at most ${MAX_RESOURCE_SUBSCRIPTIONS} resourceSubscriptions per listen`, { pointer: "/params/notifications/resourceSubscriptions" });
    }
    if (hasCapability(caps, "resources.subscribe")) out.resourceSubscriptions = [...new Set(uris as string[])];
  }
  const ids = r.taskIds;
  if (ids !== undefined) {
    if (!Array.isArray(ids) || ids.length > MAX_TASK_IDS || !ids.every((u) => typeof u === "string" && u.length > 0 && u.length <= 256)) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: taskIds must be an array of at most ${MAX_TASK_IDS} task ids`, { pointer: "/params/notifications/taskIds" });
    }
    if (!hasExtension(clientCaps, TASKS_EXTENSION)) {
      throw new McpError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: taskIds needs the ${TASKS_EXTENSION} extension`, {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      });
    }
    if (hasExtension(caps, TASKS_EXTENSION)) out.taskIds = [...new Set(ids as string[])];
  }
  return out;
}

export interface Listen {
  readonly filter: SubscriptionFilter;
  readonly uris: ReadonlySet<string>;
  /** Send one notification on the listen's stream (the hub adds `subscriptionId`). */
  readonly send: (method: string, params: Params | undefined) => Promise<void>;
  /** Ends the listen from the server side (shutdown). */
  readonly end: () => void;
}

export class ListenHub {
  private readonly listens = new Set<Listen>();

  constructor(private readonly report: (e: Error) => void) {}

  get size(): number {
    return this.listens.size;
  }

  /** No room for another listen. */
  get full(): boolean {
    return this.listens.size >= MAX_LISTENS;
  }

  /** Register a listen; refused (-32600) when the server already holds MAX_LISTENS. */
  add(listen: Listen): void {
    if (this.listens.size >= MAX_LISTENS) throw new McpError(ErrorCode.InvalidRequest, `Invalid request: this server already holds ${MAX_LISTENS} open listens`);
    this.listens.add(listen);
  }

  remove(listen: Listen): void {
    this.listens.delete(listen);
  }

  /** `notifications/<kind>/list_changed` to every listen that asked for it; resolves to how many. */
  async listChanged(kind: "tools" | "prompts" | "resources"): Promise<number> {
    const flag = `${kind}ListChanged` as const;
    return this.deliver((l) => l.filter[flag] === true, `notifications/${kind}/list_changed`, undefined);
  }

  /** `notifications/resources/updated` to every listen subscribed to `uri`. */
  resourceUpdated(uri: string): Promise<number> {
    return this.deliver((l) => l.uris.has(uri), "notifications/resources/updated", { uri });
  }

  private async deliver(match: (l: Listen) => boolean, method: string, params: Params | undefined): Promise<number> {
    const targets = [...this.listens].filter(match);
    await Promise.all(targets.map((l) => l.send(method, params).catch((e: Error) => this.report(e))));
    return targets.length;
  }

  /** `notifications/tasks` (a DetailedTask) to every listen that named the task in `taskIds`. */
  taskChanged(task: Params): Promise<number> {
    return this.deliver((l) => l.filter.taskIds?.includes(task.taskId as string) === true, "notifications/tasks", task);
  }

  /** End every listen (the server is closing): each answers its listen request and is removed. */
  endAll(): void {
    for (const l of [...this.listens]) l.end();
    this.listens.clear();
  }
}
