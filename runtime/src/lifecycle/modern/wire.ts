/**
 * What the 2026-07-28 wire shares between client and server, in one place so both sides agree: the
 * reserved `_meta` keys, the request-metadata HTTP headers, the header value encoding
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#value-encoding,
 * base64 sentinel) and the `x-mcp-header` annotations of tool input schemas.
 */
import { describe, describeText } from "../../describe.js";
import { isObject } from "../../jsonrpc.js";
import type { HeaderParam } from "../../transport.js";
import { fromBase64, toBase64, utf8Bytes } from "../../bytes.js";

export type { HeaderParam };

/**
 * Reserved `_meta` keys of requests, results and notifications
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/index, "General fields").
 */
export const MetaKey = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

/** What a `subscriptions/listen` opts in to (the 2026-07-28 `SubscriptionFilter`; extensions add keys). */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** Tasks whose `notifications/tasks` the listen wants (the tasks extension). */
  taskIds?: string[];
  [key: string]: unknown;
}

/**
 * Methods that may answer InputRequiredResult (multi round-trip requests,
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#supported-requests).
 */
export const INPUT_REQUIRED_METHODS: readonly string[] = ["tools/call", "prompts/get", "resources/read"];

/** The 2026-07-28 tasks extension's identifier (capabilities `extensions` key). */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** Whether capabilities declare an extension. */
export function hasExtension(caps: object | undefined, id: string): boolean {
  const ext = (caps as { extensions?: unknown } | undefined)?.extensions;
  return (
    typeof ext === "object" &&
    ext !== null &&
    typeof (ext as Record<string, unknown>)[id] === "object" &&
    (ext as Record<string, unknown>)[id] !== null
  );
}

/** Request-metadata headers, lower-case as node:http delivers them. */
export const Header = {
  protocolVersion: "mcp-protocol-version",
  method: "mcp-method",
  name: "mcp-name",
  /** Followed by the `x-mcp-header` name of a tool argument. */
  paramPrefix: "mcp-param-",
} as const;

/** The params field that `Mcp-Name` mirrors for `method`, if the method has one. */
export function nameField(method: string): "name" | "uri" | "taskId" | undefined {
  switch (method) {
    case "tools/call":
    case "prompts/get":
      return "name";
    case "resources/read":
      return "uri";
    case "tasks/get":
    case "tasks/update":
    case "tasks/cancel":
      return "taskId";
    default:
      return undefined;
  }
}

const SENTINEL_START = "=?base64?";
const SENTINEL_END = "?=";

/** Visible ASCII, space and HTAB: what a header value may carry raw. */
function headerSafe(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 0x20 && c <= 0x7e) || c === 0x09)) return false;
  }
  return true;
}

function looksLikeSentinel(s: string): boolean {
  return (
    s.startsWith(SENTINEL_START) && s.endsWith(SENTINEL_END) && s.length >= SENTINEL_START.length + SENTINEL_END.length
  );
}

/**
 * A header value for `Mcp-Name` / `Mcp-Param-*`: strings as they are when a header can carry them
 * unchanged, else (non-ASCII, controls, surrounding whitespace, or text that looks like the
 * sentinel itself) `=?base64?<UTF-8 bytes in base64>?=`; integers in decimal; booleans as words.
 */
export function encodeHeaderValue(value: string | number | boolean): string {
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return String(value);
  const raw = value.length > 0 && headerSafe(value) && value.trim() === value && !looksLikeSentinel(value);
  return raw ? value : `${SENTINEL_START}${toBase64(utf8Bytes(value))}${SENTINEL_END}`;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The text a received header value stands for, or undefined when it is malformed (characters a
 * header may not carry, or a sentinel whose payload is not canonical base64 of UTF-8).
 * Surrounding whitespace is not part of a value (RFC 9110 §5.5).
 */
export function decodeHeaderValue(received: string): string | undefined {
  const value = received.replace(/^[ \t]+|[ \t]+$/g, "");
  if (!headerSafe(value)) return undefined;
  if (!looksLikeSentinel(value)) return value;
  const payload = value.slice(SENTINEL_START.length, value.length - SENTINEL_END.length);
  if (!BASE64.test(payload)) return undefined;
  try {
    return utf8.decode(fromBase64(payload));
  } catch {
    return undefined;
  }
}

export type HeaderParamsResult = { readonly params: readonly HeaderParam[] } | { readonly problem: string };

/** RFC 9110 token characters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** How deep `properties` nesting is searched for annotations (schemas come from peers). */
const MAX_DEPTH = 32;
const COMPOSITION = [
  "items",
  "prefixItems",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "$ref",
  "additionalProperties",
  "patternProperties",
  "dependentSchemas",
];

/**
 * The `x-mcp-header` annotations of a tool's input schema, checked against
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#schema-extension:
 * token names, unique case-insensitively, only on string/integer/boolean properties reached from
 * the root through `properties` alone. A violation is a problem for the whole tool (a client
 * drops such a tool from its view; a server must not publish it).
 */
export function headerParams(inputSchema: unknown): HeaderParamsResult {
  const params: HeaderParam[] = [];
  const seen = new Set<string>();
  let problem: string | undefined;
  const fail = (message: string) => {
    problem ??= message;
  };
  const visit = (schema: unknown, path: string[], direct: boolean, depth: number): void => {
    if (problem !== undefined || !isObject(schema) || depth > MAX_DEPTH) return;
    const annotation = schema["x-mcp-header"];
    const where = path.length === 0 ? "the input schema root" : describeText(`/${path.join("/")}`);
    if (annotation !== undefined) {
      if (!direct || path.length === 0)
        return fail(`x-mcp-header at ${where} is not reachable through properties alone`);
      if (typeof annotation !== "string" || !TOKEN.test(annotation))
        return fail(`x-mcp-header at ${where} is not a header token`);
      const type = schema.type;
      if (type !== "string" && type !== "integer" && type !== "boolean") {
        return fail(
          `x-mcp-header at ${where} is on a ${describe(type ?? "untyped")} property; only string, integer and boolean may be mirrored`,
        );
      }
      const key = annotation.toLowerCase();
      if (seen.has(key)) return fail(`x-mcp-header ${describe(annotation)} is declared twice`);
      seen.add(key);
      params.push({ header: annotation, path, type });
    }
    const props = schema.properties;
    if (isObject(props)) {
      for (const name of Object.keys(props)) visit(props[name], [...path, name], direct, depth + 1);
    }
    for (const k of COMPOSITION) {
      const sub = schema[k];
      if (Array.isArray(sub)) for (const s of sub) visit(s, path, false, depth + 1);
      else if (isObject(sub)) {
        if (k === "patternProperties" || k === "dependentSchemas")
          for (const s of Object.values(sub)) visit(s, path, false, depth + 1);
        else visit(sub, path, false, depth + 1);
      }
    }
    const defs = schema.$defs ?? schema.definitions;
    if (isObject(defs)) for (const s of Object.values(defs)) visit(s, path, false, depth + 1);
  };
  visit(inputSchema, [], true, 0);
  return problem === undefined ? { params } : { problem };
}

/** The argument at `path`, or undefined when absent or null. */
export function argumentAt(args: unknown, path: readonly string[]): unknown {
  let v: unknown = args;
  for (const key of path) {
    if (!isObject(v) || !Object.prototype.hasOwnProperty.call(v, key)) return undefined;
    v = v[key];
  }
  return v === null ? undefined : v;
}

/** Largest integer a mirrored header may carry (±(2^53 − 1)). */
export function headerIntegerOk(v: number): boolean {
  return Number.isSafeInteger(v);
}
