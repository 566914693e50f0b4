/**
 * A change told to this process's own connections and listens: what McpServer's `notify*` and
 * `log` send here after sharing the change with other instances (change-bus.ts), and what a change
 * another instance raised is delivered as. Failures to reach one connection are reported, never
 * thrown: the others are still told. A server feature (features.ts): a server that announces no
 * change (no legacy revision, no `listChanged`, no `resources.subscribe`, no task tools) is not
 * given it, so its bundle carries none of this.
 */
import type { Params } from "../session/types.js";
import type { Listen, ListenHub } from "../lifecycle/modern/listen.js";
import { shouldLog, type Connection } from "./context.js";
import type { LoggingLevel } from "../mcp-types.js";
import type { Change, ChangeBus, ChangeList } from "./change-bus.js";
import type { ServerModernTasks } from "./types.js";
import { hasCapability } from "../lifecycle/common/capabilities.js";
import type { Capabilities } from "../lifecycle/common/types.js";

export class LocalBroadcast {
  constructor(
    /** The connections broadcasts may reach now (initialized ones). */
    private readonly ready: () => Connection[],
    private readonly listens: ListenHub,
    private readonly report: (e: Error) => void,
  ) {}

  /**
   * A change raised here: shared with the other instances on `bus` (a failure is reported: the
   * change goes out here in any case), then told to this one's; resolves to how many were told of
   * a resource update.
   */
  async raise(
    bus: ChangeBus | undefined,
    change: Extract<Change, { kind: "listChanged" | "resourceUpdated" }>,
  ): Promise<number> {
    bus?.publish(change).catch(this.report);
    if (change.kind === "resourceUpdated") return this.resourceUpdated(change.uri);
    await this.listChanged(change.list);
    return 0;
  }

  /**
   * Deliver what other instances raise on `bus` to this one's sessions and listens (only what the
   * server declares: a bus that was cut off says every list may have changed), and hand task
   * cancellations and input to the tasks run here; returns the detach.
   */
  hear(bus: ChangeBus, capabilities: Capabilities, tasks: () => ServerModernTasks | undefined): () => void {
    return bus.attach({
      listChanged: (list) =>
        void (hasCapability(capabilities, `${list}.listChanged`) && this.listChanged(list).catch(this.report)),
      resourceUpdated: (uri) =>
        void (hasCapability(capabilities, "resources.subscribe") && this.resourceUpdated(uri).catch(this.report)),
      taskChanged: (task) => void this.taskChanged(task),
      taskCancelled: (taskId) => tasks()?.remoteCancel(taskId),
      taskInput: (taskId, responses) => void tasks()?.remoteInput(taskId, responses).catch(this.report),
    });
  }

  /** `notifications/resources/updated` to every connection subscribed to `uri` and every listen on it; resolves to how many were told. */
  async resourceUpdated(uri: string): Promise<number> {
    const targets = this.ready().filter((c) => c.session.subscriptions.has(uri));
    const [listens] = await Promise.all([
      this.toListens((l) => l.uris.has(uri), "notifications/resources/updated", { uri }),
      ...targets.map((c) =>
        c.session.notify("notifications/resources/updated", { uri }).catch((e: Error) => this.report(e)),
      ),
    ]);
    return targets.length + (listens as number);
  }

  async listChanged(kind: ChangeList): Promise<void> {
    await Promise.all([
      this.notify(`notifications/${kind}/list_changed`, undefined, () => true),
      this.toListens((l) => l.filter[`${kind}ListChanged`] === true, `notifications/${kind}/list_changed`, undefined),
    ]);
  }

  async notify(method: string, params: Params | undefined, filter: (c: Connection) => boolean): Promise<void> {
    const targets = this.ready().filter(filter);
    await Promise.all(targets.map((c) => c.session.notify(method, params).catch((e: Error) => this.report(e))));
  }

  /** `notifications/tasks` (a DetailedTask) to every listen that named the task in `taskIds`. */
  taskChanged(task: Params): Promise<number> {
    return this.toListens(
      (l) => l.filter.taskIds?.includes(task.taskId as string) === true,
      "notifications/tasks",
      task,
    );
  }

  /** `notifications/message` to every connection whose level lets it through (McpServer's `log`). */
  log(level: LoggingLevel, data: unknown, logger: string | undefined): Promise<void> {
    const params = logger === undefined ? { level, data } : { level, data, logger };
    return this.notify("notifications/message", params, (c) => shouldLog(c, level));
  }

  /** `method` to every open listen that `match`es; resolves to how many. */
  private async toListens(match: (l: Listen) => boolean, method: string, params: Params | undefined): Promise<number> {
    const targets = [...this.listens.open()].filter(match);
    await Promise.all(targets.map((l) => l.send(method, params).catch((e: Error) => this.report(e))));
    return targets.length;
  }
}
