// The "everything" example over stdio as a real child process, spoken to in raw NDJSON: a
// 2026-07-28 client and a legacy handshake on the same process, a listen stream torn down by
// notifications/cancelled, and malformed 2026 input answered with the request's id.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { mainJs, waitExit } from "./helpers/everything-process.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

const child = spawn(process.execPath, [mainJs, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
const inbox: any[] = [];
let wake: (() => void) | undefined;
createInterface({ input: child.stdout! }).on("line", (l) => {
  inbox.push(JSON.parse(l));
  wake?.();
});
const send = (m: object) => child.stdin!.write(JSON.stringify(m) + "\n");

async function next(pred: (m: any) => boolean, ms = 3000): Promise<any> {
  const deadline = Date.now() + ms;
  for (;;) {
    const i = inbox.findIndex(pred);
    if (i >= 0) return inbox.splice(i, 1)[0];
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`no matching message within ${ms} ms; have ${JSON.stringify(inbox)}`);
    await new Promise<void>((r) => {
      wake = r;
      setTimeout(r, left);
    });
  }
}
const reply = (id: number | string) => next((m) => m.id === id && !("method" in m));

test("modern requests first, then a legacy handshake on the same process; both keep working", async () => {
  send({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } });
  const d = await reply(1);
  assert.ok(d.result.supportedVersions.includes("2026-07-28") && d.result.supportedVersions.includes("2025-11-25"));
  send({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "test_input_required_result_elicitation", arguments: {}, _meta: META },
  });
  const irr = (await reply(2)).result;
  assert.is(irr.resultType, "input_required");
  send({
    jsonrpc: "2.0",
    id: 3,
    method: "tools/call",
    params: {
      name: "test_input_required_result_elicitation",
      arguments: {},
      inputResponses: { user_name: { action: "accept", content: { name: "Bo" } } },
      requestState: irr.requestState,
      _meta: META,
    },
  });
  assert.is((await reply(3)).result.content[0].text, "Hello, Bo!");
  send({
    jsonrpc: "2.0",
    id: 4,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } },
  });
  assert.is((await reply(4)).result.protocolVersion, "2025-11-25");
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "test_simple_text" } });
  const legacy = (await reply(5)).result;
  assert.is(legacy.resultType, undefined);
  send({ jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "test_simple_text", _meta: META } });
  assert.is((await reply(6)).result.resultType, "complete");
});

test("a listen on stdio: ack, demultiplexed notifications, ended by notifications/cancelled", async () => {
  send({
    jsonrpc: "2.0",
    id: "L1",
    method: "subscriptions/listen",
    params: { notifications: { toolsListChanged: true }, _meta: META },
  });
  const ack = await next((m) => m.method === "notifications/subscriptions/acknowledged");
  assert.is(ack.params._meta["io.modelcontextprotocol/subscriptionId"], "L1");
  send({
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "test_trigger_tool_change", arguments: {}, _meta: META },
  });
  await reply(7);
  const changed = await next((m) => m.method === "notifications/tools/list_changed" && m.params?._meta);
  assert.is(changed.params._meta["io.modelcontextprotocol/subscriptionId"], "L1");
  send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "L1" } });
  send({
    jsonrpc: "2.0",
    id: 8,
    method: "tools/call",
    params: { name: "test_trigger_tool_change", arguments: {}, _meta: META },
  });
  await reply(8);
  await new Promise((r) => setTimeout(r, 50));
  assert.not.ok(
    inbox.some((m) => m.params?._meta?.["io.modelcontextprotocol/subscriptionId"] === "L1"),
    "nothing more for a cancelled listen",
  );
  assert.not.ok(
    inbox.some((m) => m.id === "L1"),
    "no response after cancellation",
  );
});

test("malformed 2026 input gets the spec's error with the request id; the process survives", async () => {
  send({
    jsonrpc: "2.0",
    id: 9,
    method: "tools/list",
    params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
  });
  assert.is((await reply(9)).error.code, -32602);
  send({
    jsonrpc: "2.0",
    id: 10,
    method: "tools/list",
    params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "1999-01-01" } },
  });
  assert.equal((await reply(10)).error.data.requested, "1999-01-01");
  send({
    jsonrpc: "2.0",
    id: 11,
    method: "tools/call",
    params: {
      name: "test_input_required_result_elicitation",
      arguments: {},
      requestState: "v1.forged.sig",
      _meta: META,
    },
  });
  assert.is((await reply(11)).error.code, -32602);
  send({
    jsonrpc: "2.0",
    id: 12,
    method: "tools/call",
    params: { name: "test_missing_capability", arguments: {}, _meta: META },
  });
  const e = (await reply(12)).error;
  assert.equal([e.code, e.data], [-32021, { requiredCapabilities: { sampling: {} } }]);
});

test("stdin EOF ends the process", async () => {
  child.stdin!.end();
  assert.equal(await waitExit(child, 3000), { code: 0, signal: null });
});

test.run();
