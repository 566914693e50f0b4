/**
 * `listen()` on a legacy-era connection, so application code written against 2026-07-28
 * subscriptions runs unchanged: the legacy server pushes list changes to every client that
 * declared interest through capabilities, and resource updates after `resources/subscribe`. The
 * "acknowledgement" is what the server's capabilities say it will send; closing unsubscribes.
 */
import type { Params } from "../session/types.js";
import type { ClientSession } from "../lifecycle/legacy/client.js";
import { hasCapability } from "../lifecycle/common/capabilities.js";
import { Subscription, type ListenOptions, type SubscriptionFilter } from "../lifecycle/modern/client-listen.js";

/** Change notifications a legacy server sends unasked, by the filter flag and capability that govern them. */
const LIST_CHANGED = [
  ["toolsListChanged", "tools.listChanged", "notifications/tools/list_changed"],
  ["promptsListChanged", "prompts.listChanged", "notifications/prompts/list_changed"],
  ["resourcesListChanged", "resources.listChanged", "notifications/resources/list_changed"],
] as const;

export type ChangeListener = (method: string, params: Params | undefined) => void;

let counter = 0;

export function legacyListen(
  session: ClientSession,
  filter: SubscriptionFilter,
  options: ListenOptions,
  listeners: Set<ChangeListener>,
  report: (e: Error) => void,
): Subscription {
  const controller = new AbortController();
  const sub = new Subscription(`legacy-${++counter}`, filter, options, controller, report);
  const caps = session.serverCapabilities;
  const granted: SubscriptionFilter = {};
  const methods = new Set<string>();
  for (const [flag, cap, method] of LIST_CHANGED) {
    if (filter[flag] === true && hasCapability(caps, cap)) {
      granted[flag] = true;
      methods.add(method);
    }
  }
  const uris =
    Array.isArray(filter.resourceSubscriptions) && hasCapability(caps, "resources.subscribe")
      ? [...new Set(filter.resourceSubscriptions)]
      : [];
  const subscribed: string[] = [];
  const listener: ChangeListener = (method, params) => {
    if (
      methods.has(method) ||
      (method === "notifications/resources/updated" && subscribed.includes(params?.uri as string))
    )
      sub.deliver(method, params);
  };
  const stop = async (error: unknown): Promise<void> => {
    listeners.delete(listener);
    if (!session.closed) {
      for (const uri of subscribed)
        await session.request("resources/unsubscribe", { uri }).catch((e: unknown) => report(e as Error));
    }
    sub.finish(error);
  };
  controller.signal.addEventListener("abort", () => void stop(undefined), { once: true });
  listeners.add(listener);
  void (async () => {
    try {
      for (const uri of uris) {
        if (controller.signal.aborted) return;
        await session.request("resources/subscribe", { uri });
        if (controller.signal.aborted) {
          // Closed while this subscription was in flight: undo it, stop() has already run.
          await session.request("resources/unsubscribe", { uri }).catch((e: unknown) => report(e as Error));
          return;
        }
        subscribed.push(uri);
      }
      if (uris.length > 0) granted.resourceSubscriptions = uris;
      sub.deliver("notifications/subscriptions/acknowledged", { notifications: granted });
    } catch (e) {
      await stop(e);
    }
  })();
  return sub;
}
