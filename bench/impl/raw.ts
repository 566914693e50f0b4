/**
 * Raw baseline: JSON.stringify/parse and a Map of pending ids, no validation, no framework.
 * In-process is a direct function pair; stdio a NDJSON child; HTTP node:http with a keep-alive agent.
 */
import { Agent, request as httpRequest } from "node:http";
import type { ChildProcess } from "node:child_process";
import type { Harness, HarnessOptions, Implementation, SpawnedSession } from "../harness.js";
import { CLIENT_INFO, MODERN_REQUEST_META, PROTOCOL_VERSION, sumOf, type Variant } from "../workload.js";
import { createModernRawHandler, createRawHandler, type Incoming } from "../servers/raw-handler.js";
import { serverScript, spawnNode, startHttpServer, stopChild } from "../children.js";

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

interface Message {
  id: number;
  result?: unknown;
  error?: { message: string };
}

/**
 * Client-side correlation over any pipe of messages. `RawClient` writes and reads JSON text;
 * `RawObjectClient` hands the message objects over by reference, as mcpgen's memory transport does.
 */
export class RawObjectClient<W = object> {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  constructor(private readonly write: (message: W) => void) {}

  protected encode(message: object): W {
    return message as W;
  }

  protected decode(incoming: W): Message {
    return incoming as Message;
  }

  request(method: string, params?: object): Promise<any> {
    const id = this.nextId++;
    const result = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.write(this.encode({ jsonrpc: "2.0", id, method, params }));
    return result;
  }

  notify(method: string, params?: object): void {
    this.write(this.encode({ jsonrpc: "2.0", method, params }));
  }

  receive(incoming: W): void {
    const msg = this.decode(incoming);
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    if (msg.error) p.reject(new Error(msg.error.message));
    else p.resolve(msg.result);
  }

  failAll(error: Error): void {
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }
}

class RawClient extends RawObjectClient<string> {
  protected override encode(message: object): string {
    return JSON.stringify(message);
  }

  protected override decode(text: string): Message {
    return JSON.parse(text) as Message;
  }
}

async function handshake(client: RawObjectClient<any>): Promise<void> {
  await client.request("initialize", { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO });
  client.notify("notifications/initialized");
}

function harnessOver(
  client: RawObjectClient<any>,
  variant: Variant,
  close: () => Promise<void>,
  serverPid?: number,
): Harness {
  return {
    serverPid,
    async call(a, b) {
      return sumOf(await client.request("tools/call", { name: "add", arguments: { a, b } }), variant);
    },
    close,
  };
}

function splitLines(onLine: (line: string) => void): (chunk: string) => void {
  let buffered = "";
  return (chunk) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf("\n")) !== -1) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line.length > 0) onLine(line);
    }
  };
}

function connectChild(child: ChildProcess): RawClient {
  const client = new RawClient((text) => child.stdin!.write(text + "\n"));
  child.stdout!.setEncoding("utf8");
  child.stdout!.on(
    "data",
    splitLines((line) => client.receive(line)),
  );
  child.once("exit", () => client.failAll(new Error("raw server exited")));
  return client;
}

async function spawnRawStdio(variant: Variant): Promise<{ child: ChildProcess; client: RawClient }> {
  const child = spawnNode(serverScript("raw-stdio"), [variant]);
  const client = connectChild(child);
  await handshake(client);
  return { child, client };
}

/**
 * A raw client wired to `handle` in process without JSON, handshake and tools/list done: messages
 * pass as objects, each direction delivered in a microtask, as the memory transport does (a peer
 * answering synchronously must not recurse into the sender); no copies, no checks.
 */
export async function objectPair(handle: (message: Incoming) => object | undefined): Promise<RawObjectClient> {
  // eslint-disable-next-line prefer-const
  let client: RawObjectClient;
  client = new RawObjectClient((message) =>
    queueMicrotask(() => {
      const response = handle(message as Incoming);
      if (response) queueMicrotask(() => client.receive(response));
    }),
  );
  await handshake(client);
  await client.request("tools/list");
  return client;
}

/**
 * The in-process raw pair without JSON: the same client and handler, messages passed as objects
 * (what mcpgen's memory transport does), so the ratio isolates what the runtime itself costs.
 */
export const rawObjects: Implementation = {
  async inproc({ variant }: HarnessOptions) {
    return harnessOver(await objectPair(createRawHandler(variant)), variant, async () => {});
  },
};

/**
 * The raw pair speaking the 2026-07-28 era's bytes over stdio: `server/discover` instead of the
 * handshake, every request carrying the `_meta` mcpgen's client sends, in the same key order, and
 * the server answering as mcpgen's 2026-07-28 server does (createModernRawHandler).
 */
export const raw26: Implementation = {
  async inproc({ variant }) {
    const handle = createModernRawHandler(variant);
    // eslint-disable-next-line prefer-const
    let client: RawClient;
    client = new RawClient((text) => {
      const response = handle(JSON.parse(text));
      if (response) client.receive(JSON.stringify(response));
    });
    return modernHarnessOver(client, variant, async () => {});
  },

  async stdio({ variant }) {
    const child = spawnNode(serverScript("raw-stdio"), [variant, "2026-07-28"]);
    return modernHarnessOver(connectChild(child), variant, () => stopChild(child), child.pid);
  },
};

async function modernHarnessOver(
  client: RawClient,
  variant: Variant,
  close: () => Promise<void>,
  serverPid?: number,
): Promise<Harness> {
  await client.request("server/discover", { _meta: MODERN_REQUEST_META });
  await client.request("tools/list", { _meta: MODERN_REQUEST_META });
  return {
    serverPid,
    revision: "2026-07-28",
    async call(a, b) {
      const params = { name: "add", arguments: { a, b }, _meta: MODERN_REQUEST_META };
      return sumOf(await client.request("tools/call", params), variant);
    },
    close,
  };
}

export const raw: Implementation = {
  async inproc({ variant }: HarnessOptions) {
    const handle = createRawHandler(variant);
    // eslint-disable-next-line prefer-const
    let client: RawClient;
    client = new RawClient((text) => {
      const response = handle(JSON.parse(text));
      if (response) client.receive(JSON.stringify(response));
    });
    await handshake(client);
    await client.request("tools/list");
    return harnessOver(client, variant, async () => {});
  },

  async stdio({ variant }) {
    const { child, client } = await spawnRawStdio(variant);
    await client.request("tools/list");
    return harnessOver(client, variant, () => stopChild(child), child.pid);
  },

  async spawnInitialized({ variant }): Promise<SpawnedSession> {
    const { child } = await spawnRawStdio(variant);
    return { serverPid: child.pid!, close: () => stopChild(child) };
  },

  async http({ variant }) {
    return rawHttpClient(await startHttpServer("raw-http", [variant]), variant);
  },
};

/**
 * The raw node:http client (keep-alive agent, JSON-RPC by hand) against an HTTP server child
 * speaking 2025-11-25 sessions: the raw baseline's own, or another one (bench/http-layers.ts).
 */
export async function rawHttpClient(
  { child, url }: { child: ChildProcess; url: string },
  variant: Variant,
): Promise<Harness> {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const target = new URL(url);
  let sessionId: string | undefined;
  let nextId = 1;
  const post = (message: object) =>
    new Promise<{ status: number; body: string; sid?: string }>((resolve, reject) => {
      const body = JSON.stringify(message);
      const headers: Record<string, string | number> = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "content-length": Buffer.byteLength(body),
      };
      if (sessionId) headers["mcp-session-id"] = sessionId;
      const req = httpRequest(
        { agent, host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => (text += c));
          res.on("end", () =>
            resolve({ status: res.statusCode!, body: text, sid: res.headers["mcp-session-id"] as string | undefined }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  const rpc = async (method: string, params?: object) => {
    const id = nextId++;
    const res = await post({ jsonrpc: "2.0", id, method, params });
    const msg = JSON.parse(res.body);
    if (msg.id !== id) throw new Error(`raw http: response id ${msg.id} for request ${id}`);
    if (msg.error) throw new Error(msg.error.message);
    if (res.sid) sessionId = res.sid;
    return msg.result;
  };
  await rpc("initialize", { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO });
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  await rpc("tools/list");
  return {
    serverPid: child.pid,
    async call(a, b) {
      return sumOf(await rpc("tools/call", { name: "add", arguments: { a, b } }), variant);
    },
    async close() {
      agent.destroy();
      await stopChild(child);
    },
  };
}
