/**
 * What another instance needs to take a legacy Streamable HTTP session over when the instance
 * holding it died (a SessionDirectory with `save`/`takeOver`): the client's `initialize` params
 * (the revision it asked for, its info and capabilities: the server negotiates the same answer
 * again), its log level, its resource subscriptions and where its SSE streams' ids come from. Kept
 * from the messages the client sent, so the session layer needs no hook; restored by delivering
 * those messages again. Read back from a shared store, so parsed as untrusted input.
 */
import type { JSONRPCMessage } from "../jsonrpc.js";
import { SESSION_RECORD_MAX_CHARS, SESSION_RECORD_MAX_SUBSCRIPTIONS } from "../limits.js";

export interface SessionRecord {
  /** The `initialize` request's params as the client sent them. */
  initialize: Record<string, unknown>;
  /** `logging/setLevel`'s level, once set. */
  logLevel?: string;
  /** URIs of `resources/subscribe` not unsubscribed since. */
  subscriptions: string[];
  /** Prefix of the session's SSE stream ids. */
  streams: string;
  /** The standalone GET stream's id, once it has one. */
  standalone?: string;
}

/**
 * Update `record` for one message the client sent; true when it changed (and must be saved).
 * Only the four methods that shape a session are looked at.
 */
export function recordMessage(record: SessionRecord, message: JSONRPCMessage | JSONRPCMessage[]): boolean {
  if (Array.isArray(message)) {
    let changed = false;
    for (const m of message) changed = recordMessage(record, m) || changed;
    return changed;
  }
  if (!("method" in message) || !("id" in message)) return false;
  const params = (message as { params?: Record<string, unknown> }).params;
  switch (message.method) {
    case "logging/setLevel":
      if (typeof params?.level !== "string" || params.level === record.logLevel) return false;
      record.logLevel = params.level;
      return true;
    case "resources/subscribe":
      if (typeof params?.uri !== "string" || record.subscriptions.includes(params.uri)) return false;
      record.subscriptions.push(params.uri);
      return true;
    case "resources/unsubscribe": {
      const at = typeof params?.uri === "string" ? record.subscriptions.indexOf(params.uri) : -1;
      if (at === -1) return false;
      record.subscriptions.splice(at, 1);
      return true;
    }
    default:
      return false;
  }
}

/** The record as stored; undefined when it passes its bounds (the session then cannot be taken over). */
export function serializeRecord(record: SessionRecord): string | undefined {
  if (record.subscriptions.length > SESSION_RECORD_MAX_SUBSCRIPTIONS) return undefined;
  const text = JSON.stringify(record);
  return text.length > SESSION_RECORD_MAX_CHARS ? undefined : text;
}

const isString = (v: unknown): v is string => typeof v === "string";

/** A stored record, checked: undefined for anything oversized, corrupted or of another shape. */
export function parseRecord(text: unknown): SessionRecord | undefined {
  if (typeof text !== "string" || text.length > SESSION_RECORD_MAX_CHARS) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  const r = v as Record<string, unknown>;
  const init = r.initialize;
  if (typeof init !== "object" || init === null || Array.isArray(init)) return undefined;
  if (!isString(r.streams) || !/^[0-9a-z]{1,64}$/.test(r.streams)) return undefined;
  if (
    r.standalone !== undefined &&
    // A stream id as this runtime makes them (session-transport.ts): one line, as its event ids must be.
    !(
      isString(r.standalone) &&
      r.standalone.length <= 128 &&
      /^[0-9a-z]+-[0-9a-z]+$/.test(r.standalone) &&
      r.standalone.startsWith(`${r.streams}-`)
    )
  )
    return undefined;
  if (r.logLevel !== undefined && !isString(r.logLevel)) return undefined;
  const subs = r.subscriptions;
  if (!Array.isArray(subs) || subs.length > SESSION_RECORD_MAX_SUBSCRIPTIONS || !subs.every(isString)) return undefined;
  const out: SessionRecord = { initialize: init as Record<string, unknown>, subscriptions: subs, streams: r.streams };
  if (r.logLevel !== undefined) out.logLevel = r.logLevel;
  if (r.standalone !== undefined) out.standalone = r.standalone;
  return out;
}

/** Ids of the requests restoreMessages makes: outside what a client's ids look like, and unique per takeover. */
const RESTORE_ID = "mcpgen/takeover:";

/** The messages that rebuild the recorded session on a new instance, in the order its client sent them. */
export function restoreMessages(record: SessionRecord): JSONRPCMessage[] {
  let n = 0;
  const request = (method: string, params: Record<string, unknown>) =>
    ({ jsonrpc: "2.0", id: `${RESTORE_ID}${n++}`, method, params }) as JSONRPCMessage;
  const out: JSONRPCMessage[] = [
    request("initialize", record.initialize),
    { jsonrpc: "2.0", method: "notifications/initialized" } as JSONRPCMessage,
  ];
  if (record.logLevel !== undefined) out.push(request("logging/setLevel", { level: record.logLevel }));
  for (const uri of record.subscriptions) out.push(request("resources/subscribe", { uri }));
  return out;
}

/** The record functions a SessionDirectory that keeps records hands the HTTP layer (SessionDirectory.records). */
export const sessionRecords = { recordMessage, serializeRecord, parseRecord, restoreMessages } as const;
export type SessionRecords = typeof sessionRecords;
