/** Reading capability objects: presence means support; sub-keys refine it. */
import type { Side } from "../../abi.js";
import type { Capabilities } from "./types.js";

function present(v: unknown): boolean {
  return v !== undefined && v !== null && v !== false;
}

/** Whether `caps` has the dotted `path` (e.g. "resources.subscribe") set to something other than false. */
export function hasCapability(caps: Capabilities | undefined, path: string): boolean {
  if (path.indexOf(".") < 0) return caps !== undefined && caps !== null && present(caps[path]);
  let cur: unknown = caps;
  let start = 0;
  for (;;) {
    if (typeof cur !== "object" || cur === null) return false;
    const dot = path.indexOf(".", start);
    const value = (cur as Record<string, unknown>)[dot < 0 ? path.slice(start) : path.slice(start, dot)];
    if (!present(value)) return false;
    if (dot < 0) return true;
    cur = value;
    start = dot + 1;
  }
}

/**
 * Elicitation modes: `elicitation: {}` (and every pre-2025-11-25 declaration) means form only;
 * from 2025-11-25 `form` and `url` are declared separately.
 */
export function elicitationModeAllowed(caps: Capabilities | undefined, mode: unknown): boolean {
  const e = caps?.elicitation;
  if (typeof e !== "object" || e === null) return false;
  const modes = e as Record<string, unknown>;
  if (mode === "url") return present(modes.url);
  if (mode === "form") return present(modes.form) || !present(modes.url);
  return false;
}

const SERVER_KEYS = new Set(["tools", "prompts", "resources", "logging", "completions"]);
const CLIENT_KEYS = new Set(["roots", "sampling", "elicitation"]);

/**
 * Whose capability gates a notification. The method table names one path; for notifications it
 * belongs to the sender for its own features (`tools.listChanged`, `logging`) and to the receiver
 * for the receiver's (`elicitation.url`). Keys both sides have (tasks, experimental) are not enforced.
 */
export function notificationCapabilityOwner(capability: string): Side | undefined {
  const dot = capability.indexOf(".");
  const root = dot < 0 ? capability : capability.slice(0, dot);
  if (SERVER_KEYS.has(root)) return "server";
  if (CLIENT_KEYS.has(root)) return "client";
  return undefined;
}
