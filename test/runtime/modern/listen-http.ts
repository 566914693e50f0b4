/** Raw HTTP plumbing for the listen tests: legacy sessions, listen streams held open on their own sockets, a full GC. */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { raw, OpenStream, waitFor } from "../transports/helpers.js";
import { META } from "./fixture.js";

export const ACCEPT = "application/json, text/event-stream";

/** A full collection without --expose-gc on the command line. */
export function fullGc(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** A 2025-11-25 session on `url` (initialize + initialized); the headers its requests carry. */
export async function legacySession(url: URL, authorization?: string): Promise<Record<string, string>> {
  const auth: Record<string, string> = authorization === undefined ? {} : { authorization };
  const init = await raw(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT, ...auth },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
  if (init.status !== 200) throw new Error(`initialize: ${init.status} ${init.body}`);
  const h = {
    "content-type": "application/json",
    accept: ACCEPT,
    "mcp-session-id": init.headers["mcp-session-id"] as string,
    "mcp-protocol-version": "2025-11-25",
    ...auth,
  };
  const done = await raw(url, {
    method: "POST",
    headers: h,
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  if (done.status !== 202) throw new Error(`initialized: ${done.status}`);
  return h;
}

/** The headers of a stateless 2026-07-28 listen POST. */
export function modernHeaders(authorization?: string): Record<string, string> {
  const h: Record<string, string> = {
    "content-type": "application/json",
    accept: ACCEPT,
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "subscriptions/listen",
  };
  if (authorization !== undefined) h.authorization = authorization;
  return h;
}

/**
 * POST a `subscriptions/listen` carrying 2026-07-28 `_meta` with `headers` (a legacy session's, or
 * modernHeaders()), on a socket of its own; resolves once it is acknowledged or refused.
 */
export async function openListen(
  url: URL,
  headers: Record<string, string>,
  id: number,
  notifications: object = { toolsListChanged: true },
  meta: object = {},
): Promise<OpenStream> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "subscriptions/listen",
    params: { notifications, _meta: { ...META, ...meta } },
  });
  const s = await OpenStream.open(url, { method: "POST", headers, body });
  await waitFor(() => s.ended || acknowledged(s), 5000, `listen ${id} acknowledged or answered`);
  return s;
}

/** The JSON-RPC error a refused listen was answered with (a plain JSON reply). */
export function refusal(
  s: OpenStream,
): { code: number; message: string; data?: { limit?: string; max?: number } } | undefined {
  if (!s.ended || !String(s.headers["content-type"]).includes("application/json")) return undefined;
  return (JSON.parse(s.text) as { error?: { code: number; message: string; data?: { limit?: string; max?: number } } })
    .error;
}

/** Whether the listen was acknowledged on its stream (the whole event is in). */
export function acknowledged(s: OpenStream): boolean {
  return (
    s.text.includes("acknowledged") &&
    s.messages().some((m) => "method" in m && m.method === "notifications/subscriptions/acknowledged")
  );
}
