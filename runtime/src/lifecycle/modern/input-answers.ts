/**
 * Checking one `inputResponses` entry against the result type of the input request it answers
 * (`ElicitResult`, `CreateMessageResult`, `ListRootsResult` of
 * https://modelcontextprotocol.io/specification/2026-07-28/schema), when a handler's request looks
 * it up. The params validator checks `inputResponses` only as a map of objects: only the handler's
 * own request says which type an entry must have, and an entry no handler reads is ignored
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr). Written out
 * rather than generated: the generated validators of these types (content blocks above all) would
 * be the largest code of a 2026-07-28 server that asks the client for input.
 */
import { isObject } from "../../jsonrpc.js";
import { pointerToken } from "../../issue-sites.js";

/** The client requests a handler may make, as input requests. */
export type InputMethod = "elicitation/create" | "sampling/createMessage" | "roots/list";

/** A problem of an answer: where (a JSON pointer below the entry, "" for the entry) and what. */
export interface AnswerProblem {
  readonly at: string;
  readonly problem: string;
}

const ROLES: ReadonlySet<unknown> = new Set(["assistant", "user"]);
const ACTIONS: ReadonlySet<unknown> = new Set(["accept", "decline", "cancel"]);

const is = (at: string, problem: string): AnswerProblem => ({ at, problem });

/** The first of `names` that is not a string in `v`, as a problem at `at`. */
function strings(v: Record<string, unknown>, at: string, names: readonly string[]): AnswerProblem | undefined {
  for (const n of names) if (typeof v[n] !== "string") return is(`${at}/${n}`, "must be a string");
  return undefined;
}

/** Annotations and `_meta`, which every content block may carry. */
function common(v: Record<string, unknown>, at: string): AnswerProblem | undefined {
  if (v._meta !== undefined && !isObject(v._meta)) return is(`${at}/_meta`, "must be an object");
  const a = v.annotations;
  if (a === undefined) return undefined;
  if (!isObject(a)) return is(`${at}/annotations`, "must be an object");
  if (a.audience !== undefined && !(Array.isArray(a.audience) && a.audience.every((r) => ROLES.has(r))))
    return is(`${at}/annotations/audience`, 'must be an array of "assistant" or "user"');
  if (a.priority !== undefined && !(typeof a.priority === "number" && a.priority >= 0 && a.priority <= 1))
    return is(`${at}/annotations/priority`, "must be a number from 0 to 1");
  if (a.lastModified !== undefined && typeof a.lastModified !== "string")
    return is(`${at}/annotations/lastModified`, "must be a string");
  return undefined;
}

/**
 * A content block: text, image and audio anywhere; tool use and tool results in sampling
 * (`sampling`), resource links and embedded resources inside a tool result (not `sampling`).
 */
function block(v: unknown, at: string, sampling: boolean): AnswerProblem | undefined {
  if (!isObject(v)) return is(at, "must be a content block object");
  switch (v.type) {
    case "text":
      return strings(v, at, ["text"]) ?? common(v, at);
    case "image":
    case "audio":
      return strings(v, at, ["data", "mimeType"]) ?? common(v, at);
    case "tool_use":
      if (!sampling) break;
      if (!isObject(v.input)) return is(`${at}/input`, "must be an object");
      return strings(v, at, ["id", "name"]) ?? common(v, at);
    case "tool_result": {
      if (!sampling) break;
      if (v.isError !== undefined && typeof v.isError !== "boolean") return is(`${at}/isError`, "must be a boolean");
      if (!Array.isArray(v.content)) return is(`${at}/content`, "must be an array of content blocks");
      for (let i = 0; i < v.content.length; i++) {
        const p = block(v.content[i], `${at}/content/${i}`, false);
        if (p !== undefined) return p;
      }
      return strings(v, at, ["toolUseId"]) ?? common(v, at);
    }
    case "resource_link":
      if (sampling) break;
      return strings(v, at, ["uri", "name"]) ?? common(v, at);
    case "resource": {
      if (sampling) break;
      const r = v.resource;
      if (!isObject(r) || typeof r.uri !== "string" || (typeof r.text !== "string" && typeof r.blob !== "string"))
        return is(`${at}/resource`, "must be an object with a string uri and a string text or blob");
      return common(v, at);
    }
  }
  return is(`${at}/type`, `is not a content block type of ${sampling ? "a sampling message" : "a tool result"}`);
}

function elicitResult(v: Record<string, unknown>): AnswerProblem | undefined {
  if (!ACTIONS.has(v.action)) return is("/action", 'must be "accept", "decline" or "cancel"');
  const content = v.content;
  if (content === undefined) return undefined;
  if (!isObject(content)) return is("/content", "must be an object");
  for (const [name, value] of Object.entries(content)) {
    const ok =
      typeof value === "string" ||
      typeof value === "boolean" ||
      Number.isInteger(value) ||
      (Array.isArray(value) && value.every((x) => typeof x === "string"));
    if (!ok)
      return is(`/content/${pointerToken(name)}`, "must be a string, an integer, a boolean or an array of strings");
  }
  return undefined;
}

function createMessageResult(v: Record<string, unknown>): AnswerProblem | undefined {
  if (!ROLES.has(v.role)) return is("/role", 'must be "assistant" or "user"');
  if (typeof v.model !== "string") return is("/model", "must be a string");
  if (v.stopReason !== undefined && typeof v.stopReason !== "string") return is("/stopReason", "must be a string");
  if (v._meta !== undefined && !isObject(v._meta)) return is("/_meta", "must be an object");
  const content = v.content;
  if (!Array.isArray(content)) return block(content, "/content", true);
  for (let i = 0; i < content.length; i++) {
    const p = block(content[i], `/content/${i}`, true);
    if (p !== undefined) return p;
  }
  return undefined;
}

function listRootsResult(v: Record<string, unknown>): AnswerProblem | undefined {
  if (!Array.isArray(v.roots)) return is("/roots", "must be an array of roots");
  for (let i = 0; i < v.roots.length; i++) {
    const r: unknown = v.roots[i];
    if (!isObject(r)) return is(`/roots/${i}`, "must be an object");
    const p = strings(r, `/roots/${i}`, ["uri"]);
    if (p !== undefined) return p;
    if (r.name !== undefined && typeof r.name !== "string") return is(`/roots/${i}/name`, "must be a string");
  }
  return undefined;
}

/** Why `answer` is not a result of `method`, or undefined when it is one. */
export function answerProblem(method: InputMethod, answer: unknown): AnswerProblem | undefined {
  if (!isObject(answer)) return is("", "must be an object");
  if (method === "elicitation/create") return elicitResult(answer);
  if (method === "sampling/createMessage") return createMessageResult(answer);
  return listRootsResult(answer);
}
