/**
 * Which methods a manifest's server receives and so validates, per revision: the generated server
 * names only their validators, so a bundle of it carries no other. The runtime answers a request
 * gated by a capability the server does not declare with -32601 before it reads any validator
 * (its policies' `checkInbound`, the capability gates of the reviewed method overlay), and
 * registers no handler for it; every other method keeps its validator:
 * - requests no capability gates (`initialize`, `ping`, `server/discover`, ...);
 * - requests whose capability the server declares (the model's, a superset of every revision's
 *   lists), and the task methods when some tool may run as a task (the runtime adds the `tasks`
 *   capability then);
 * - every notification a client may send, since a program may register a handler for any of them
 *   on a connection;
 * - the results of every request the server itself may send.
 */
import type { ServerModel, ServerCapabilitiesModel } from "./server-ir.js";
import { readOverlay } from "./overlay.js";

export interface ServedMethods {
  /** Methods whose params the server validates, in the overlay's order. */
  params: string[];
  /** Requests of the server whose results it validates. */
  results: string[];
}

/** Whether `caps` holds the dotted `path` ("resources.subscribe"), as the runtime's hasCapability reads it. */
function declares(caps: ServerCapabilitiesModel, path: string): boolean {
  let cur: unknown = caps;
  for (const key of path.split(".")) {
    if (typeof cur !== "object" || cur === null) return false;
    cur = (cur as Record<string, unknown>)[key];
    if (cur === undefined || cur === null || cur === false) return false;
  }
  return true;
}

export function servedMethods(model: ServerModel, revision: string): ServedMethods {
  const taskTools = model.tools.some((t) => t.taskSupport !== "forbidden");
  const params: string[] = [];
  const results: string[] = [];
  for (const [method, info] of Object.entries(readOverlay(revision).methods)) {
    if (info.from !== "server") {
      const cap = info.capability;
      const served =
        info.kind === "notification" ||
        cap === null ||
        (cap === "tasks" || cap.startsWith("tasks.") ? taskTools : declares(model.capabilities, cap));
      if (served) params.push(method);
    }
    if (info.kind === "request" && info.from !== "client") results.push(method);
  }
  return { params, results };
}
