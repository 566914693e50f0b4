import { readFileSync } from "node:fs";
import { join } from "node:path";
import { McpgenError, pointer } from "../errors.js";
import { schemaDir } from "../paths.js";
import type { Direction } from "./ir.js";

/**
 * A reviewed method overlay, `schema/methods.<rev>.json`: the facts a schema.json does not state
 * (result type, capability gate), plus kind/direction/message type so a schema that adds, removes
 * or renames a method disagrees with it loudly.
 */
export interface MethodOverlay {
  revision: string;
  era: "legacy" | "modern";
  batching: boolean;
  methods: Record<string, OverlayMethod>;
  /** 2026-07-28: server-to-client requests embedded in results (MRTR), not JSON-RPC methods. */
  inputRequests?: Record<string, OverlayInputRequest>;
}

export interface OverlayMethod {
  kind: "request" | "notification";
  from: Direction;
  messageType: string;
  resultType: string | null;
  capability: string | null;
}

export interface OverlayInputRequest {
  messageType: string;
  resultType: string;
  capability: string | null;
}

const cache = new Map<string, MethodOverlay>();

export function overlayFile(revision: string): string {
  return `schema/methods.${revision}.json`;
}

export function readOverlay(revision: string): MethodOverlay {
  const hit = cache.get(revision);
  if (hit) return hit;
  const file = overlayFile(revision);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(schemaDir, `methods.${revision}.json`), "utf8"));
  } catch (e) {
    throw new McpgenError(`cannot read the reviewed method overlay: ${(e as Error).message}`, { file });
  }
  const overlay = checkOverlay(parsed, file, revision);
  cache.set(revision, overlay);
  return overlay;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const nullableString = (v: unknown) => v === null || typeof v === "string";

/** Shape check, so a hand edit with a typo fails here with a pointer instead of deep in an emitter. */
function checkOverlay(raw: unknown, file: string, revision: string): MethodOverlay {
  const bad = (ptr: string, expected: string): never => {
    throw new McpgenError("malformed method overlay", { file, pointer: ptr, expected });
  };
  if (!isObject(raw)) return bad("", "an object");
  if (raw.revision !== revision) bad("/revision", JSON.stringify(revision));
  if (raw.era !== "legacy" && raw.era !== "modern") bad("/era", '"legacy" or "modern"');
  if (typeof raw.batching !== "boolean") bad("/batching", "a boolean");
  if (!isObject(raw.methods)) return bad("/methods", "an object keyed by method name");
  for (const [name, m] of Object.entries(raw.methods)) {
    const at = (k?: string) => (k ? pointer("methods", name, k) : pointer("methods", name));
    if (!isObject(m)) bad(at(), "an object");
    const o = m as Record<string, unknown>;
    if (o.kind !== "request" && o.kind !== "notification") bad(at("kind"), '"request" or "notification"');
    if (o.from !== "client" && o.from !== "server" && o.from !== "both")
      bad(at("from"), '"client", "server" or "both"');
    if (typeof o.messageType !== "string") bad(at("messageType"), "a definition name");
    if (o.kind === "request" ? typeof o.resultType !== "string" : o.resultType !== null) {
      bad(at("resultType"), o.kind === "request" ? "a definition name" : "null for a notification");
    }
    if (!nullableString(o.capability)) bad(at("capability"), "a dotted capability path or null");
  }
  if (raw.inputRequests !== undefined) {
    if (!isObject(raw.inputRequests)) bad("/inputRequests", "an object keyed by method name");
    for (const [name, m] of Object.entries(raw.inputRequests as Record<string, unknown>)) {
      const o = isObject(m) ? m : bad(pointer("inputRequests", name), "an object");
      if (typeof o.messageType !== "string") bad(pointer("inputRequests", name, "messageType"), "a definition name");
      if (typeof o.resultType !== "string") bad(pointer("inputRequests", name, "resultType"), "a definition name");
      if (!nullableString(o.capability)) bad(pointer("inputRequests", name, "capability"), "a capability path or null");
    }
  }
  return raw as unknown as MethodOverlay;
}
