/**
 * The HTTP workloads of stateless.ts, sse.ts and paired.ts as socket-load.ts runs them: a
 * 2026-07-28 `tools/call` of `add` with its headers and `_meta`, and the same call inside a
 * 2025-11-25 session answered as an SSE stream; each reply is checked.
 */
import { request } from "node:http";
import type { SocketLoadOptions } from "./socket-load.js";
import { CLIENT_INFO, PROTOCOL_VERSION } from "./workload.js";

/** The `_meta` every 2026-07-28 request of the HTTP workloads carries. */
export const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
};
export const MODERN_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "add",
};

/** 2026-07-28 `tools/call`s, answered with a JSON body. */
export function modernCalls(port: number, concurrency: number): SocketLoadOptions {
  return {
    port,
    path: "/mcp",
    headers: MODERN_HEADERS,
    concurrency,
    body: (id) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "add", arguments: { a: id, b: 1 }, _meta: META },
      }),
    check(id, status, body) {
      const m = JSON.parse(body);
      // resultType is not required here: SDK v2 2.4.0 leaves it out of tools/call results.
      if (status !== 200 || m.result?.content?.[0]?.text !== String(id + 1))
        throw new Error(`bad reply (${status}) ${JSON.stringify(m)}`);
    },
  };
}

/** The JSON-RPC response among an SSE body's `data:` lines (a priming event's data is empty). */
export function sseResponse(body: string): { id?: number; result?: { content?: { text?: string }[] } } {
  for (const line of body.split("\n"))
    if (line.startsWith("data: ") && line.length > 6) return JSON.parse(line.slice(6));
  throw new Error(`no SSE message in ${JSON.stringify(body.slice(0, 200))}`);
}

function post(port: number, message: object, sid: string | undefined): Promise<string | undefined> {
  const body = JSON.stringify(message);
  const headers: Record<string, string | number> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PROTOCOL_VERSION,
    "content-length": Buffer.byteLength(body),
  };
  if (sid !== undefined) headers["mcp-session-id"] = sid;
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.headers["mcp-session-id"] as string | undefined));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** A 2025-11-25 session opened (initialize, initialized) and `tools/call`s in it, answered as SSE. */
export async function sessionCalls(port: number, concurrency: number): Promise<SocketLoadOptions> {
  const initialize = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
  };
  const sid = await post(port, initialize, undefined);
  if (sid === undefined) throw new Error("no session id");
  await post(port, { jsonrpc: "2.0", method: "notifications/initialized" }, sid);
  return {
    port,
    path: "/mcp",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": PROTOCOL_VERSION,
      "mcp-session-id": sid,
    },
    concurrency,
    body: (id) =>
      JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "add", arguments: { a: id, b: 1 } } }),
    check(id, status, body) {
      const m = sseResponse(body);
      if (status !== 200 || m.id !== id || m.result?.content?.[0]?.text !== String(id + 1))
        throw new Error(`bad reply (${status}) ${JSON.stringify(m)}`);
    },
  };
}
