// The "everything" example as a real process over Streamable HTTP, spoken to with raw fetch on
// the 2026-07-28 shape: status codes with the request id, a listen stream fed by another POST,
// and the legacy shape still answering beside it.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startEverything, type EverythingProcess } from "./helpers/everything-process.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
};
let server: EverythingProcess;
let nextId = 1;

function headers(method: string, name?: string, extra: Record<string, string> = {}): Record<string, string> {
  const h: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  };
  if (name !== undefined) h["mcp-name"] = name;
  return { ...h, ...extra };
}

async function post(
  method: string,
  params: Record<string, unknown>,
  extra: Record<string, string> = {},
  signal?: AbortSignal,
) {
  const id = nextId++;
  const name = (params.name ?? params.uri) as string | undefined;
  const res = await fetch(server.url, {
    method: "POST",
    signal,
    headers: headers(method, name, extra),
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: META } }),
  });
  return { id, res };
}

test.before(async () => {
  server = await startEverything();
});

test.after(async () => {
  assert.equal(await server.stop(), { code: 0, signal: null }, `stderr: ${server.stderr()}`);
});

test("errors travel with their HTTP status and the request's id", async () => {
  for (const [method, params, extra, status, code] of [
    ["ping", {}, {}, 404, -32601],
    ["tools/call", { name: "test_simple_text" }, { "mcp-name": "other" }, 400, -32020],
    ["tools/call", { name: "test_header_param", arguments: { region: "eu" } }, {}, 400, -32020],
    ["tools/call", { name: "test_missing_capability", arguments: {} }, {}, 400, -32021],
    ["resources/read", { uri: "test://missing" }, {}, 400, -32602],
  ] as const) {
    const { id, res } = await post(method, params, extra);
    const body = (await res.json()) as any;
    assert.equal([res.status, body.id, body.error?.code], [status, id, code], `${method} ${JSON.stringify(params)}`);
  }
  const ok = await post(
    "tools/call",
    { name: "test_header_param", arguments: { region: "eu" } },
    { "mcp-param-region": "eu" },
  );
  assert.is(ok.res.status, 200);
});

test("a listen stream hears a tools list change made by another POST, and ends when closed", async () => {
  const ctrl = new AbortController();
  const { id, res } = await post(
    "subscriptions/listen",
    { notifications: { toolsListChanged: true, promptsListChanged: true } },
    {},
    ctrl.signal,
  );
  assert.is(res.headers.get("x-accel-buffering"), "no");
  const reader = res.body!.getReader();
  let text = "";
  const read = async (want: string) => {
    for (let i = 0; i < 50 && !text.includes(want); i++) text += new TextDecoder().decode((await reader.read()).value);
  };
  await read("acknowledged");
  const trigger = await post("tools/call", { name: "test_trigger_tool_change", arguments: {} });
  assert.is(trigger.res.status, 200);
  await trigger.res.text();
  await read("notifications/tools/list_changed");
  const events = text
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)));
  assert.equal(
    events.map((e) => [e.method, e.params._meta["io.modelcontextprotocol/subscriptionId"]]),
    [
      ["notifications/subscriptions/acknowledged", id],
      ["notifications/tools/list_changed", id],
    ],
  );
  ctrl.abort();
});

test("the legacy shape answers on the same endpoint", async () => {
  const res = await fetch(server.url, { headers: { accept: "text/event-stream" } });
  assert.is(res.status, 400, "GET without a session is a legacy error, not 405, on a dual-era server");
  const init = await fetch(server.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "old", version: "1" } },
    }),
  });
  assert.ok(init.headers.get("mcp-session-id"));
  assert.is(((await init.json()) as any).result.protocolVersion, "2025-06-18");
});

test.run();
