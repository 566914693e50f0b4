/**
 * A scripted 2026-07-28 server on an in-memory transport, for client tests: every message the
 * client sends is recorded, and `answer` decides the reply (or none) per request.
 */
import { createMemoryTransportPair, type JSONRPCMessage, type MemoryTransport } from "@mcpgen/runtime";
import { MetaKey } from "@mcpgen/runtime/internal";

export type Msg = {
  jsonrpc: "2.0";
  id?: string | number;
  method?: string;
  params?: Record<string, any>;
  result?: any;
  error?: any;
};

export interface Peer {
  transport: MemoryTransport;
  /** Everything the client sent, in order. */
  seen: Msg[];
  requests(method: string): Msg[];
  send(m: Msg): void;
}

/**
 * `answer` returns a result object, `{ error }` for an error reply, null for no reply, or
 * undefined for the default (a discover result for server/discover, no reply otherwise).
 */
export type Answer = (
  m: Msg,
  peer: Peer,
) => Record<string, unknown> | { error: { code: number; message: string; data?: unknown } } | null | undefined | void;

export const DISCOVERED = {
  resultType: "complete",
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: { listChanged: true }, prompts: {}, resources: { subscribe: true, listChanged: true } },
  ttlMs: 0,
  cacheScope: "public",
  _meta: { [MetaKey.serverInfo]: { name: "scripted", version: "1.0.0" } },
};

export async function scriptedPeer(answer: Answer): Promise<Peer> {
  const [client, server] = createMemoryTransportPair();
  const seen: Msg[] = [];
  const peer: Peer = {
    transport: client,
    seen,
    requests: (method) => seen.filter((m) => m.method === method && m.id !== undefined),
    send: (m) => void server.send(m as JSONRPCMessage),
  };
  server.onmessage = (raw) => {
    const m = raw as unknown as Msg;
    seen.push(m);
    if (m.id === undefined || m.method === undefined) return;
    let out = answer(m, peer);
    if (out === undefined && m.method === "server/discover") out = DISCOVERED;
    if (out === undefined || out === null) return;
    if ("error" in out && typeof out.error === "object") peer.send({ jsonrpc: "2.0", id: m.id, error: out.error });
    else peer.send({ jsonrpc: "2.0", id: m.id, result: out });
  };
  await server.start();
  return peer;
}

export const tick = (ms = 0): Promise<void> => new Promise((r) => setTimeout(r, ms));
