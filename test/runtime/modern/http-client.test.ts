// The 2026-07-28 Streamable HTTP client against a scripted node:http server on 127.0.0.1:
// request-metadata headers (incl. Mcp-Param-* with base64), JSON and SSE replies, refusals with
// JSON-RPC bodies, cancellation by closing the exchange, the -32020 re-list-and-retry, and the
// dual-era probe's HTTP outcomes
// (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#backward-compatibility).
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { McpError, connectMcpClient, type McpClient } from "@mcpgen/runtime";
import { MetaKey } from "@mcpgen/runtime/internal";
import { HttpStatusError, ModernHttpClientTransport, connectHttp, requestHeaders } from "@mcpgen/runtime/http";
import { dual } from "../helpers/binding.js";

type Body = { jsonrpc: "2.0"; id?: number | string; method?: string; params?: Record<string, any> };
interface Seen {
  method: string;
  headers: http.IncomingHttpHeaders;
  body: Body | undefined;
  closed: Promise<void>;
}
type Reply = { status?: number; json?: unknown; raw?: string; sse?: string[]; hang?: boolean; empty?: boolean };

async function server(
  answer: (b: Body, req: http.IncomingMessage) => Reply | undefined,
): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const srv = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      const body = raw ? (JSON.parse(raw) as Body) : undefined;
      seen.push({
        method: req.method!,
        headers: req.headers,
        body,
        closed: new Promise((r) => res.once("close", () => r())),
      });
      if (req.method !== "POST") return void res.writeHead(405).end();
      const reply = answer(body!, req);
      if (reply === undefined || reply.empty) return void res.writeHead(reply?.status ?? 202).end();
      if (reply.hang) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(": keep-alive\n\n");
        return;
      }
      if (reply.sse) {
        res.writeHead(reply.status ?? 200, { "content-type": "text/event-stream" });
        for (const e of reply.sse) res.write(e);
        return void res.end();
      }
      res
        .writeHead(reply.status ?? 200, { "content-type": "application/json" })
        .end(reply.raw ?? JSON.stringify(reply.json));
    });
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const { port } = srv.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: () =>
      new Promise((r) => {
        srv.closeAllConnections();
        srv.close(() => r());
      }),
  };
}

const ok = (b: Body, result: Record<string, unknown>): Reply => ({
  json: { jsonrpc: "2.0", id: b.id, result: { resultType: "complete", ...result } },
});
const refuse = (b: Body, status: number, code: number, message: string, data?: unknown): Reply => ({
  status,
  json: { jsonrpc: "2.0", id: b.id ?? null, error: { code, message, data } },
});
const DISCOVER = {
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: {}, resources: {} },
  ttlMs: 0,
  cacheScope: "public",
  _meta: { [MetaKey.serverInfo]: { name: "http-scripted", version: "1" } },
};
const REGIONAL = {
  name: "regional",
  inputSchema: {
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      n: { type: "integer", "x-mcp-header": "N" },
      flag: { type: "boolean", "x-mcp-header": "Flag" },
      deep: { type: "object", properties: { zone: { type: "string", "x-mcp-header": "Zone" } } },
    },
  },
};
const clientInfo = { name: "http-test", version: "1" };

async function client(url: string, extra: Record<string, unknown> = {}): Promise<McpClient> {
  return connectMcpClient(connectHttp(url), { bindings: dual, clientInfo, timeout: 3000, eraCache: false, ...extra });
}

test("requestHeaders: version, method, name, and the annotated arguments (base64 where unsafe, absent/null/mistyped omitted)", () => {
  const tools = new Map([
    [
      "regional",
      [
        { header: "Region", path: ["region"], type: "string" as const },
        { header: "N", path: ["n"], type: "integer" as const },
        { header: "Flag", path: ["flag"], type: "boolean" as const },
        { header: "Zone", path: ["deep", "zone"], type: "string" as const },
      ],
    ],
  ]);
  const h = requestHeaders(
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "regional",
        arguments: { region: "Zürich", n: 42, flag: false, deep: { zone: null } },
        _meta: { [MetaKey.protocolVersion]: "2026-07-28" },
      },
    },
    tools,
    undefined,
  );
  assert.equal(h, {
    "MCP-Protocol-Version": "2026-07-28",
    "Mcp-Method": "tools/call",
    "Mcp-Name": "regional",
    "Mcp-Param-Region": `=?base64?${Buffer.from("Zürich").toString("base64")}?=`,
    "Mcp-Param-N": "42",
    "Mcp-Param-Flag": "false",
  });
  const mistyped = requestHeaders(
    { method: "tools/call", params: { name: "regional", arguments: { region: 7, n: 1.5, flag: "yes" } } },
    tools,
    "2026-07-28",
  );
  assert.equal(
    Object.keys(mistyped).filter((k) => k.startsWith("Mcp-Param-")),
    [],
  );
  assert.equal(
    requestHeaders({ method: "resources/read", params: { uri: "file:///a b" } }, tools, "2026-07-28")["Mcp-Name"],
    "file:///a b",
  );
  assert.equal(requestHeaders({ method: "tools/list", params: {} }, tools, "2026-07-28"), {
    "MCP-Protocol-Version": "2026-07-28",
    "Mcp-Method": "tools/list",
  });
});

test("modern HTTP end to end: headers on every POST, JSON and SSE replies (comments ignored, progress delivered), no session", async () => {
  const s = await server((b) => {
    switch (b.method) {
      case "server/discover":
        return ok(b, DISCOVER);
      case "tools/list":
        return ok(b, {
          tools: [
            REGIONAL,
            {
              name: "bad",
              inputSchema: { type: "object", properties: { x: { type: "number", "x-mcp-header": "X" } } },
            },
          ],
          ttlMs: 0,
          cacheScope: "public",
        });
      case "tools/call": {
        const token = b.params!._meta.progressToken;
        return {
          sse: [
            ": hello\n\n",
            `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1, total: 2 } })}\n\n`,
            ": still here\n\n",
            `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: b.id, result: { resultType: "complete", content: [{ type: "text", text: `region ${b.params!.arguments.region}` }] } })}\n\n`,
          ],
        };
      }
    }
    return undefined;
  });
  const errors: Error[] = [];
  const c = await client(s.url, { onerror: (e: Error) => errors.push(e) });
  assert.is(c.era, "modern");
  assert.is(c.serverInfo.name, "http-scripted");
  const tools = await c.listTools();
  assert.equal(
    tools.map((t) => t.name),
    ["regional"],
    "the tool with a number x-mcp-header is dropped",
  );
  assert.ok(errors.some((e) => /"bad" left out/.test(e.message)));
  const progress: number[] = [];
  const r = await c.callTool("regional", { region: " eu ", n: 3 }, { onprogress: (p) => progress.push(p.progress) });
  assert.equal(r.content, [{ type: "text", text: "region  eu " }]);
  assert.equal(progress, [1]);
  const call = s.seen.find((x) => x.body?.method === "tools/call")!;
  assert.is(call.headers["mcp-protocol-version"], "2026-07-28");
  assert.is(call.headers["mcp-method"], "tools/call");
  assert.is(call.headers["mcp-name"], "regional");
  assert.is(call.headers["mcp-param-region"], `=?base64?${Buffer.from(" eu ").toString("base64")}?=`);
  assert.is(call.headers["mcp-param-n"], "3");
  assert.is(call.headers.accept, "application/json, text/event-stream");
  for (const x of s.seen) {
    assert.is(x.method, "POST");
    assert.is(x.headers["mcp-session-id"], undefined);
    assert.is(x.headers["mcp-protocol-version"], "2026-07-28");
  }
  await c.close();
  await s.close();
});

test("refusals: 400/404 with a JSON-RPC body are that request's error (even with id null); a bare 500 is an HTTP error", async () => {
  const s = await server((b) => {
    if (b.method === "server/discover") return ok(b, DISCOVER);
    if (b.method === "resources/read")
      return refuse({ ...b, id: undefined }, 400, -32602, "Resource not found", { uri: b.params!.uri });
    if (b.method === "tools/call" && b.params!.name === "missing") return refuse(b, 404, -32601, "Method not found");
    if (b.method === "tools/call") return { status: 500, json: "oops" };
    return undefined;
  });
  const c = await client(s.url);
  const nf = await c.readResource("file:///nope").catch((e: unknown) => e);
  assert.instance(nf, McpError);
  assert.is((nf as McpError).code, -32602);
  assert.equal((nf as McpError).data, { uri: "file:///nope" });
  const m = await c.callTool("missing").catch((e: unknown) => e);
  assert.is((m as McpError).code, -32601);
  const boom = await c.callTool("x").catch((e: unknown) => e);
  assert.instance(boom, HttpStatusError);
  assert.is((boom as HttpStatusError).status, 500);
  await c.close();
  await s.close();
});

test("cancellation: aborting (or a timeout) closes the request's exchange; nothing else is POSTed", async () => {
  const s = await server((b) =>
    b.method === "server/discover" ? ok(b, DISCOVER) : b.method === "tools/call" ? { hang: true } : undefined,
  );
  const c = await client(s.url);
  const ac = new AbortController();
  const p = c.callTool("slow", {}, { signal: ac.signal }).catch((e: unknown) => e);
  while (!s.seen.some((x) => x.body?.method === "tools/call")) await new Promise((r) => setTimeout(r, 5));
  ac.abort(new Error("stop"));
  assert.is(((await p) as Error).message, "stop");
  await s.seen.find((x) => x.body?.method === "tools/call")!.closed;
  const t = await c.callTool("slow", {}, { timeout: 100 }).catch((e: unknown) => e);
  assert.is((t as Error).name, "RequestTimeoutError");
  await s.seen.filter((x) => x.body?.method === "tools/call")[1]!.closed;
  assert.not.ok(
    s.seen.some((x) => x.body?.method === "notifications/cancelled"),
    "cancellation is the closed stream, not a POST",
  );
  await c.close();
  await s.close();
});

test("-32020 on tools/call: the client lists tools again and retries once with the headers it learned", async () => {
  let annotated = false;
  const s = await server((b) => {
    if (b.method === "server/discover") return ok(b, DISCOVER);
    if (b.method === "tools/list") {
      const tool = annotated
        ? REGIONAL
        : { name: "regional", inputSchema: { type: "object", properties: { region: { type: "string" } } } };
      annotated = true;
      return ok(b, { tools: [tool], ttlMs: 60_000, cacheScope: "public" });
    }
    if (b.method === "tools/call") {
      return b.params!.name === "never"
        ? refuse(b, 400, -32020, "Header mismatch: Mcp-Param-Region missing")
        : s.seen.at(-1)!.headers["mcp-param-region"] === undefined
          ? refuse(b, 400, -32020, "Header mismatch: Mcp-Param-Region missing")
          : ok(b, { content: [{ type: "text", text: "ok" }] });
    }
    return undefined;
  });
  const c = await client(s.url);
  await c.listTools();
  const r = await c.callTool("regional", { region: "eu" });
  assert.equal(r.content, [{ type: "text", text: "ok" }]);
  assert.equal(
    s.seen.map((x) => x.body?.method),
    ["server/discover", "tools/list", "tools/call", "tools/list", "tools/call"],
    "the cached tools/list was bypassed",
  );
  const again = await c.callTool("never", { region: "eu" }).catch((e: unknown) => e);
  assert.is((again as McpError).code, -32020, "retried once, then the error is the caller's");
  await c.close();
  await s.close();
});

test("HTTP probe: 4xx with a recognized modern error stays modern; 400 without one, or 2xx -32601, falls back to legacy Streamable HTTP", async () => {
  let refused = false;
  const modern = await server((b) => {
    if (b.method === "server/discover" && !refused) {
      refused = true;
      return refuse(b, 400, -32022, "Unsupported protocol version", { supported: ["2026-07-28"], requested: "x" });
    }
    return b.method === "server/discover" ? ok(b, DISCOVER) : undefined;
  });
  const m = await client(modern.url);
  assert.is(m.era, "modern");
  assert.not.ok(modern.seen.some((x) => x.body?.method === "initialize"));
  await m.close();
  await modern.close();

  const legacyServer = (discover: (b: Body) => Reply) =>
    server((b) => {
      if (b.method === "server/discover") return discover(b);
      if (b.method === "initialize")
        return {
          json: {
            jsonrpc: "2.0",
            id: b.id,
            result: {
              protocolVersion: "2025-11-25",
              capabilities: { tools: {} },
              serverInfo: { name: "legacy-http", version: "1" },
            },
          },
        };
      if (b.method === "tools/list") return { json: { jsonrpc: "2.0", id: b.id, result: { tools: [] } } };
      return { status: 202, empty: true };
    });
  for (const [what, discover] of [
    ["400 with an empty body", () => ({ status: 400, empty: true })],
    ["400 with a non-modern body", (b: Body) => refuse(b, 400, -32000, "Bad Request: no valid session ID")],
    ["200 with -32601", (b: Body) => refuse(b, 200, -32601, "Method not found")],
    ["404 without a JSON-RPC body", () => ({ status: 404, json: "not here" })],
    ["200 with a body that is not JSON", () => ({ raw: "<html>hello</html>" })],
    ["no answer within the probe timeout", () => ({ hang: true })],
  ] as const) {
    const s = await legacyServer(discover as (b: Body) => Reply);
    const transport = connectHttp(s.url);
    const c = await connectMcpClient(transport, {
      bindings: dual,
      clientInfo,
      timeout: 3000,
      eraCache: false,
      probeTimeout: 300,
    });
    assert.is(c.era, "legacy", what);
    assert.is(c.serverInfo.name, "legacy-http");
    assert.is(transport.mode, "streamable-http");
    assert.equal(await c.listTools(), []);
    const init = s.seen.find((x) => x.body?.method === "initialize")!;
    assert.is(init.headers["mcp-method"], undefined, "legacy traffic carries no 2026 headers");
    await c.close();
    await s.close();
  }
});

test("a ModernHttpClientTransport alone: pinned 2026 era, and a reply without the response fails the request", async () => {
  const s = await server((b) =>
    b.method === "server/discover"
      ? ok(b, DISCOVER)
      : b.method === "tools/call"
        ? { sse: [": nothing\n\n"] }
        : undefined,
  );
  const c = await connectMcpClient(new ModernHttpClientTransport({ url: s.url }), {
    bindings: dual,
    clientInfo,
    timeout: 3000,
    era: "modern",
  });
  assert.is(c.era, "modern");
  const e = await c.callTool("t").catch((x: unknown) => x);
  assert.match((e as Error).message, /ended without a response/);
  await c.close();
  await s.close();
});

test.run();
