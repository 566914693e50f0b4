/**
 * How a 2026-07-28 client reads a result
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/index#resulttype,
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr,
 * https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching): `resultType`
 * absent means `complete` (a server of an earlier revision), an unknown value is an invalid result,
 * and an `input_required` result is only legal for the three methods that may ask for input.
 */
import { isObject } from "../../jsonrpc.js";
import type { ProtocolBinding, ValidationIssue } from "../../abi.js";
import { validatorReady } from "../../lazy-binding.js";
import { InvalidResultError } from "../../errors.js";
import { pointerToken } from "../../issue-sites.js";
import type { Params, Result } from "../../session/types.js";
import { MethodSet } from "../../session/method-set.js";
import { INPUT_REQUIRED_METHODS } from "./wire.js";

/** Methods whose results may be `input_required` (the client's own set: its last answer is its own). */
export const INPUT_METHODS = new MethodSet(INPUT_REQUIRED_METHODS);

/** Methods whose complete results carry `ttlMs` / `cacheScope`. */
export const CACHEABLE_METHODS = new MethodSet([
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);

/**
 * The member a complete result of an input-capable method must have. Their result schemas are
 * unions with InputRequiredResult (whose only required member is `resultType`), so the schema
 * alone would let a complete result without its payload through.
 */
const PAYLOAD: Readonly<Record<string, string>> = {
  "tools/call": "content",
  "prompts/get": "messages",
  "resources/read": "contents",
};

/** The kinds of input request a server may put in `inputRequests`. */
export const INPUT_REQUEST_METHODS: ReadonlySet<string> = new Set([
  "elicitation/create",
  "sampling/createMessage",
  "roots/list",
]);

/** How many input requests one `InputRequiredResult` may carry (it comes from the peer). */
export const MAX_INPUT_REQUESTS = 64;

export interface InputRequest {
  readonly method: string;
  readonly params: Params | undefined;
}

export interface InputRequired {
  /** By the server-chosen key. */
  readonly inputRequests: ReadonlyMap<string, InputRequest>;
  /** Opaque; echoed byte-exact on the retry, omitted when absent. */
  readonly requestState: string | undefined;
}

function issue(instancePath: string, keyword: string, message: string): ValidationIssue {
  return { instancePath, schemaPath: "", keyword, params: {}, message };
}

/** What must load before `readResult(method, …, binding, trust)` can run; undefined when nothing. */
export function resultReady(method: string, binding: ProtocolBinding, trust: boolean): Promise<void> | undefined {
  return trust ? undefined : validatorReady(binding, "results", method);
}

/**
 * Classify and check one result of `method`: undefined when it is complete (then `result` is the
 * answer, with `resultType` filled in), the input it asks for when it is `input_required`; throws
 * InvalidResultError otherwise. A complete result is validated against the revision's result
 * schema (after treating an absent `resultType` as `complete` and, for cacheable results, absent
 * hints as "stale now"); `trust` skips schema validation but never the `resultType` rules.
 */
export function readResult(
  method: string,
  result: Result,
  binding: ProtocolBinding,
  trust: boolean,
): InputRequired | undefined {
  const type = result.resultType;
  if (type === undefined || type === "complete") {
    if (type === undefined) result.resultType = "complete";
    const payload = PAYLOAD[method];
    if (payload !== undefined && !Array.isArray(result[payload])) {
      throw new InvalidResultError(
        method,
        [issue(`/${payload}`, "type", "a complete result must carry it as an array")],
        result,
      );
    }
    if (!trust) {
      const validate = binding.results[method];
      if (validate !== undefined) {
        const checked =
          CACHEABLE_METHODS.has(method) && (result.ttlMs === undefined || result.cacheScope === undefined)
            ? { ttlMs: 0, cacheScope: "private", ...result }
            : result;
        if (!validate(checked)) throw new InvalidResultError(method, validate.errors ?? [], result);
      }
    }
    return undefined;
  }
  if (type !== "input_required") {
    throw new InvalidResultError(
      method,
      [issue("/resultType", "enum", `unknown resultType ${JSON.stringify(type)}`)],
      result,
    );
  }
  if (!INPUT_METHODS.has(method)) {
    throw new InvalidResultError(
      method,
      [issue("/resultType", "enum", `${method} may not answer input_required`)],
      result,
    );
  }
  return readInputRequired(method, result);
}

export function readInputRequired(method: string, result: Result): InputRequired {
  const bad = (path: string, keyword: string, message: string): never => {
    throw new InvalidResultError(method, [issue(path, keyword, message)], result);
  };
  const { inputRequests, requestState } = result;
  if (inputRequests === undefined && requestState === undefined)
    bad("", "required", "input_required result has neither inputRequests nor requestState");
  if (requestState !== undefined && typeof requestState !== "string") bad("/requestState", "type", "must be a string");
  const out = new Map<string, InputRequest>();
  if (inputRequests !== undefined) {
    if (!isObject(inputRequests)) bad("/inputRequests", "type", "must be an object");
    const keys = Object.keys(inputRequests as object);
    if (keys.length > MAX_INPUT_REQUESTS)
      bad("/inputRequests", "maxProperties", `more than ${MAX_INPUT_REQUESTS} input requests`);
    for (const key of keys) {
      const r = (inputRequests as Record<string, unknown>)[key];
      const at = `/inputRequests/${pointerToken(key)}`;
      if (!isObject(r)) bad(at, "type", "must be an object");
      const m = (r as Record<string, unknown>).method;
      const p = (r as Record<string, unknown>).params;
      if (typeof m !== "string" || !INPUT_REQUEST_METHODS.has(m))
        bad(`${at}/method`, "enum", `unknown input request method ${JSON.stringify(m)}`);
      if (p !== undefined && !isObject(p)) bad(`${at}/params`, "type", "must be an object");
      if (m !== "roots/list" && p === undefined) bad(`${at}/params`, "required", `${String(m)} needs params`);
      out.set(key, { method: m as string, params: p as Params | undefined });
    }
  }
  return { inputRequests: out, requestState: requestState as string | undefined };
}

/** `ttlMs` as the client must read it: absent, negative or not a number means stale at once. */
export function ttlOf(result: Result): number {
  const t = result.ttlMs;
  return typeof t === "number" && Number.isFinite(t) && t > 0 ? t : 0;
}
