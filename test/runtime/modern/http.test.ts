// The 2026-07-28 Streamable HTTP path of the runtime's server: dual dispatch, request-metadata
// header validation (standard and Mcp-Param-*), status mapping with the request id echoed, SSE
// and JSON replies, listen streams (keep-alive, teardown on close), legacy sessions alongside.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createStreamableHttpServer } from "@mcpgen/runtime/http";
import { META, definition, server } from "./fixture.js";
import { sleep } from "../helpers/peer.js";

const s = server();
const http = createStreamableHttpServer({ onsession: (t) => s.connect(t).then(() => {}), keepAliveMs: 20 });
const url = await http.listen();
let id = 1;

function headersFor(method: string, params: any, extra: Record<string, string> = {}): Record<string, string> {
  const h: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  };
  const name = method === "resources/read" ? params?.uri : params?.name;
  if (typeof name === "string") h["mcp-name"] = name;
  for (const k of Object.keys(extra)) delete h[k.toLowerCase()];
  return { ...h, ...extra };
}

async function post(method: string, params: any = {}, extra: Record<string, string> = {}, meta: object | null = {}) {
  const rid = id++;
  const p = meta === null ? params : { ...params, _meta: { ...META, ...meta } };
  const res = await fetch(url, {
    method: "POST",
    headers: headersFor(method, params, extra),
    body: JSON.stringify({ jsonrpc: "2.0", id: rid, method, params: p }),
  });
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  const body = type.includes("event-stream")
    ? text
        .split("\n")
        .filter((l) => l.startsWith("data: "))
        .map((l) => JSON.parse(l.slice(6)))
    : text
      ? JSON.parse(text)
      : undefined;
  return { status: res.status, type, res, body, rid };
}

test("discover and a tool call answer 200 with resultType; errors carry the spec status and the request id", async () => {
  let r = await post("server/discover");
  assert.is(r.status, 200);
  assert.is(r.body.result.resultType, "complete");
  assert.is(r.res.headers.get("mcp-session-id"), null, "no session on the modern path");
  r = await post("server/discover", {}, {}, null);
  assert.equal([r.status, r.body.error.code, r.body.id], [400, -32602, r.rid]);
  r = await post("server/discover", {}, {}, { "io.modelcontextprotocol/protocolVersion": "v999" });
  assert.equal([r.status, r.body.error.code, r.body.id], [400, -32020, r.rid]);
  r = await post(
    "server/discover",
    {},
    { "mcp-protocol-version": "v999" },
    { "io.modelcontextprotocol/protocolVersion": "v999" },
  );
  assert.equal([r.status, r.body.error.code, r.body.error.data.requested], [400, -32022, "v999"]);
  for (const m of ["ping", "initialize", "logging/setLevel", "unknown/method"]) {
    r = await post(m);
    assert.equal([r.status, r.body.error.code, r.body.id], [404, -32601, r.rid], m);
  }
  r = await post(
    "tools/call",
    { name: "sample", arguments: {} },
    {},
    { "io.modelcontextprotocol/clientCapabilities": {} },
  );
  assert.equal([r.status, r.body.error.code], [400, -32021]);
  r = await post("tools/call", { name: "ask", arguments: {} });
  assert.equal([r.status, r.body.result.resultType], [200, "input_required"]);
});

test("Mcp-Method / Mcp-Name must mirror the body: names case-insensitive, values case-sensitive, whitespace allowed", async () => {
  let r = await post("tools/list", {}, { "mcp-method": "TOOLS/LIST" });
  assert.equal([r.status, r.body.error.code, r.body.id], [400, -32020, r.rid]);
  r = await post("tools/list", {}, { "MCP-METHOD": "  tools/list " });
  assert.is(r.status, 200);
  r = await post("tools/call", { name: "echo", arguments: {} }, { "mcp-name": "ECHO" });
  assert.equal([r.status, r.body.error.code], [400, -32020]);
  r = await post(
    "resources/read",
    { uri: "u://static" },
    { "mcp-name": `=?base64?${Buffer.from("u://static").toString("base64")}?=` },
  );
  assert.is(r.status, 200);
  r = await post("resources/read", { uri: "u://static" }, { "mcp-name": "=?base64?!!!?=" });
  assert.equal([r.status, r.body.error.code], [400, -32020]);
  const noName = headersFor("tools/call", { name: "echo" });
  delete noName["mcp-name"];
  const raw = await fetch(url, {
    method: "POST",
    headers: noName,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 77,
      method: "tools/call",
      params: { name: "echo", arguments: {}, _meta: META },
    }),
  });
  assert.equal([raw.status, ((await raw.json()) as any).id], [400, 77]);
});

test("Mcp-Param-* headers mirror x-mcp-header arguments (base64 sentinel, integers numerically)", async () => {
  const call = (args: object, extra: Record<string, string>) =>
    post("tools/call", { name: "echo", arguments: args }, extra);
  assert.is((await call({ region: "eu" }, { "mcp-param-region": "eu" })).status, 200);
  assert.is((await call({ region: "eu" }, { "Mcp-Param-REGION": "eu" })).status, 200);
  assert.is(
    (await call({ region: "ü" }, { "mcp-param-region": `=?base64?${Buffer.from("ü").toString("base64")}?=` })).status,
    200,
  );
  assert.is((await call({ n: 7 }, { "mcp-param-n": "007" })).status, 200);
  for (const [args, extra] of [
    [{ region: "eu" }, {}],
    [{ region: "eu" }, { "mcp-param-region": "EU" }],
    [{}, { "mcp-param-region": "eu" }],
    [{ n: 7 }, { "mcp-param-n": "7.0" }],
    [{ n: 7 }, { "mcp-param-n": "8" }],
  ] as const) {
    const r = await call(args, extra);
    assert.equal([r.status, r.body.error?.code, r.body.id], [400, -32020, r.rid], JSON.stringify([args, extra]));
  }
});

test("malformed bodies: the id is echoed when readable", async () => {
  const h = headersFor("tools/call", { name: "echo" });
  let res = await fetch(url, {
    method: "POST",
    headers: h,
    body: JSON.stringify({ jsonrpc: "2.0", id: "x1", method: "tools/call", params: { name: "echo", _meta: "nope" } }),
  });
  assert.equal([res.status, ((await res.json()) as any).id], [400, "x1"]);
  res = await fetch(url, { method: "POST", headers: h, body: "{not json" });
  assert.is(res.status, 400);
  res = await fetch(url, { method: "POST", headers: h, body: JSON.stringify({ jsonrpc: "2.0", id: 3, result: {} }) });
  assert.equal([res.status, ((await res.json()) as any).id], [400, 3]);
});

test("every malformed _meta value, header value, requestState or inputResponses: a spec code, 400, the id", async () => {
  const bad: unknown[] = [null, 1, "x", [], {}, true, "=?base64?%%?=", "a".repeat(300)];
  const keys = [
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/clientCapabilities",
    "io.modelcontextprotocol/clientInfo",
    "io.modelcontextprotocol/logLevel",
  ];
  const cases: { params: any; headers?: Record<string, string> }[] = [];
  for (const key of keys)
    for (const v of bad)
      if (!(key.endsWith("clientCapabilities") && (v as object)?.constructor === Object))
        cases.push({ params: { name: "echo", arguments: {}, _meta: { ...META, [key]: v } } });
  for (const v of bad) cases.push({ params: { name: "ask", arguments: {}, requestState: v, _meta: META } });
  for (const v of [null, 1, "x", [], true])
    cases.push({ params: { name: "ask", arguments: {}, inputResponses: v, _meta: META } });
  for (const v of bad) cases.push({ params: { name: "ask", arguments: {}, inputResponses: { name: v }, _meta: META } });
  for (const h of ["", " ", "=?base64?", "=?base64?AAAA?=", "\u00ff"])
    cases.push({ params: { name: "echo", arguments: {}, _meta: META }, headers: { "mcp-name": h } });
  for (const c of cases) {
    const rid = id++;
    const h = headersFor("tools/call", c.params);
    const res = await fetch(url, {
      method: "POST",
      headers: { ...h, ...c.headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: rid, method: "tools/call", params: c.params }),
    }).catch((e: Error) => e);
    if (res instanceof Error) {
      assert.ok(c.headers !== undefined, `fetch refused a body case: ${res.message}`); // fetch itself refuses some header bytes
      continue;
    }
    const body = (await res.json()) as any;
    const what = JSON.stringify(c).slice(0, 160);
    if (body.result !== undefined) {
      // The one valid value among them: an empty inputResponses (nothing answered yet).
      assert.equal([c.params.inputResponses, body.result.resultType], [{}, "input_required"], what);
      continue;
    }
    assert.ok([-32602, -32020, -32022].includes(body.error.code), `${what}: code ${body.error.code}`);
    assert.equal([res.status, body.id], [400, rid], what);
  }
  assert.is((await post("tools/list")).status, 200, "the server is still serving");
});

test("log notifications make an SSE reply (X-Accel-Buffering: no); none without a log level", async () => {
  let r = await post("tools/call", { name: "log", arguments: {} }, {}, { "io.modelcontextprotocol/logLevel": "debug" });
  assert.ok(r.type.includes("text/event-stream"));
  assert.is(r.res.headers.get("x-accel-buffering"), "no");
  assert.equal(
    r.body.map((m: any) => m.method ?? "response"),
    ["notifications/message", "notifications/message", "response"],
  );
  r = await post("tools/call", { name: "log", arguments: {} });
  assert.is(r.type, "application/json");
});

test("a listen stream: ack first, keep-alive comments, notifications, and closing it frees the listen", async () => {
  const ctrl = new AbortController();
  const res = await fetch(url, {
    method: "POST",
    signal: ctrl.signal,
    headers: headersFor("subscriptions/listen", {}),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 42,
      method: "subscriptions/listen",
      params: { notifications: { toolsListChanged: true }, _meta: META },
    }),
  });
  assert.ok(res.headers.get("content-type")!.includes("text/event-stream"));
  const reader = res.body!.getReader();
  let text = "";
  const until = async (pred: () => boolean) => {
    for (let i = 0; i < 50 && !pred(); i++) text += new TextDecoder().decode((await reader.read()).value);
  };
  await until(() => text.includes("acknowledged"));
  for (let i = 0; i < 100 && s.listens.size === 0; i++) await sleep(5);
  await s.notifyToolsListChanged();
  await until(() => text.includes("list_changed") && text.includes(": keep-alive"));
  const events = text
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)));
  assert.is(events[0].method, "notifications/subscriptions/acknowledged");
  assert.is(events[1].params._meta["io.modelcontextprotocol/subscriptionId"], 42);
  ctrl.abort();
  for (let i = 0; i < 100 && s.listens.size > 0; i++) await sleep(5);
  assert.is(s.listens.size, 0);
});

test("a legacy client is served on the same endpoint at the same time", async () => {
  const init = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } },
    }),
  });
  const sid = init.headers.get("mcp-session-id")!;
  assert.is(((await init.json()) as any).result.protocolVersion, "2025-11-25");
  const legacyHeaders = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-session-id": sid,
    "mcp-protocol-version": "2025-11-25",
  };
  await fetch(url, {
    method: "POST",
    headers: legacyHeaders,
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  const [legacy, modern] = await Promise.all([
    fetch(url, {
      method: "POST",
      headers: legacyHeaders,
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    }).then((r) => r.json() as Promise<any>),
    post("tools/list"),
  ]);
  assert.is(legacy.result.resultType, undefined);
  assert.is(modern.body.result.resultType, "complete");
});

test("legacy: false answers every method but POST with 405 Allow: POST; a legacy-only server answers modern POSTs with a non-modern 400", async () => {
  const modernOnly = server({}, definition(["2026-07-28"]));
  const h1 = createStreamableHttpServer({ legacy: false, onsession: (t) => modernOnly.connect(t).then(() => {}) });
  const u1 = await h1.listen();
  for (const method of ["GET", "DELETE", "PUT"]) {
    const r = await fetch(u1, { method, headers: { accept: "text/event-stream" } });
    assert.equal([method, r.status, r.headers.get("allow")], [method, 405, "POST"]);
  }
  // With the legacy shape served, the endpoint's GET and DELETE are its methods too.
  const put = await fetch(url, { method: "PUT" });
  assert.equal([put.status, put.headers.get("allow")], [405, "GET, POST, DELETE"]);
  const legacyOnly = server({}, definition(["2025-11-25"]));
  const h2 = createStreamableHttpServer({ onsession: (t) => legacyOnly.connect(t).then(() => {}) });
  const u2 = await h2.listen();
  const res = await fetch(u2, {
    method: "POST",
    headers: headersFor("tools/list", {}),
    body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/list", params: { _meta: META } }),
  });
  const body = (await res.json()) as any;
  assert.equal([res.status, body.id, body.error.code], [400, 5, -32600]);
  await Promise.all([h1.close(), h2.close(), modernOnly.close(), legacyOnly.close()]);
});

test("teardown", async () => {
  await http.close();
  await s.close();
});

test.run();
