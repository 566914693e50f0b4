// The 2026-07-28 tasks extension on the "everything" example, a real process over Streamable
// HTTP: the server decides per call whether a tool call becomes a task, the client polls with
// tasks/get, answers task-phase input with tasks/update, cancels, and hears notifications/tasks on
// a listen stream that named the task.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startEverything, type EverythingProcess } from "./helpers/everything-process.js";

const EXT = "io.modelcontextprotocol/tasks";
const WITH = { elicitation: {}, extensions: { [EXT]: {} } };
const WITHOUT = { elicitation: {} };
let server: EverythingProcess;
let nextId = 1;

async function rpc(
  method: string,
  params: Record<string, unknown>,
  caps: object = WITH,
  signal?: AbortSignal,
): Promise<any> {
  const id = nextId++;
  const name = (params.name ?? params.uri ?? params.taskId) as string | undefined;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  };
  if (name !== undefined) headers["mcp-name"] = name;
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": caps,
  };
  const res = await fetch(server.url, {
    method: "POST",
    signal,
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } }),
  });
  if (signal !== undefined) return res;
  const body = (await res.json()) as any;
  assert.is(body.id, id);
  return body;
}

/** tasks/get until `done` holds (bounded: 100 polls, 50 ms apart). */
async function until(taskId: string, done: (t: any) => boolean): Promise<any> {
  for (let i = 0; i < 100; i++) {
    const t = (await rpc("tasks/get", { taskId })).result;
    if (done(t)) return t;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`task ${taskId} never reached the wanted state`);
}
const terminal = (t: any) => ["completed", "failed", "cancelled"].includes(t.status);

test.before(async () => {
  server = await startEverything();
});

test.after(async () => {
  assert.equal(await server.stop(), { code: 0, signal: null }, `stderr: ${server.stderr()}`);
});

test("server/discover advertises the extension; a slow call becomes a task whose result tasks/get inlines", async () => {
  const d = await rpc("server/discover", {});
  assert.equal(d.result.capabilities.extensions[EXT], {});
  const created = (await rpc("tools/call", { name: "slow_compute", arguments: { seconds: 0.3, label: "x" } })).result;
  assert.is(created.resultType, "task");
  assert.is(created.status, "working");
  assert.ok(Number.isInteger(created.ttlMs) && created.ttlMs > 0);
  assert.ok(typeof created.taskId === "string" && created.taskId.length >= 22);
  const done = await until(created.taskId, terminal);
  assert.is(done.status, "completed");
  assert.is(done.resultType, "complete");
  assert.equal(done.result.content, [{ type: "text", text: "Computed x after 0.3s" }]);
  const fast = (await rpc("tools/call", { name: "slow_compute", arguments: { seconds: 0 } })).result;
  assert.is(fast.resultType, "complete", "a call that finishes within the grace period answers at once");
});

test("without the extension: task tools run synchronously, required ones are -32021, tasks/* are -32021", async () => {
  const sync = (await rpc("tools/call", { name: "slow_compute", arguments: { seconds: 0.2 } }, WITHOUT)).result;
  assert.equal([sync.resultType, sync.content[0].text], ["complete", "Computed result after 0.2s"]);
  const required = await rpc("tools/call", { name: "failing_job", arguments: {} }, WITHOUT);
  assert.is(required.error.code, -32021);
  assert.equal(required.error.data.requiredCapabilities, { extensions: { [EXT]: {} } });
  assert.is((await rpc("tasks/get", { taskId: "x" }, WITHOUT)).error.code, -32021);
  assert.is(
    (await rpc("tasks/result", { taskId: "x" })).error.code,
    -32601,
    "tasks/result does not exist in the extension",
  );
  assert.is((await rpc("tasks/get", { taskId: "no-such-task" })).error.code, -32602);
});

test("tool errors complete with isError; JSON-RPC errors fail with the error inlined", async () => {
  const failing = (await rpc("tools/call", { name: "failing_job", arguments: {} })).result;
  const protocol = (await rpc("tools/call", { name: "protocol_error_job", arguments: {} })).result;
  const a = await until(failing.taskId, terminal);
  const b = await until(protocol.taskId, terminal);
  assert.equal([a.status, a.result.isError], ["completed", true]);
  assert.equal([b.status, b.error.code, "result" in b], ["failed", -32603, false]);
});

test("task-phase input: input_required with the requests, partial answers keep the rest outstanding", async () => {
  const t = (await rpc("tools/call", { name: "multi_input", arguments: {} })).result;
  const waiting = await until(
    t.taskId,
    (x) => x.status === "input_required" && Object.keys(x.inputRequests).length === 2,
  );
  const [k1, k2] = Object.keys(waiting.inputRequests);
  assert.is(waiting.inputRequests[k1].method, "elicitation/create");
  const ack = (
    await rpc("tasks/update", {
      taskId: t.taskId,
      inputResponses: { [k1!]: { action: "accept", content: { name: "one" } }, bogus: {} },
    })
  ).result;
  assert.equal(Object.keys(ack).sort(), ["_meta", "resultType"]);
  const partial = (await rpc("tasks/get", { taskId: t.taskId })).result;
  assert.equal([partial.status, Object.keys(partial.inputRequests)], ["input_required", [k2]]);
  await rpc("tasks/update", {
    taskId: t.taskId,
    inputResponses: { [k2!]: { action: "accept", content: { name: "two" } } },
  });
  const done = await until(t.taskId, terminal);
  assert.is(done.result.content[0].text, "First: accept one; second: accept two");
});

test("MRTR before the task: input_required round first, then a task that used the answer", async () => {
  const r1 = (await rpc("tools/call", { name: "test_tool_with_task", arguments: {} })).result;
  assert.is(r1.resultType, "input_required");
  assert.ok(r1.inputRequests.user_name);
  const r2 = (
    await rpc("tools/call", {
      name: "test_tool_with_task",
      arguments: {},
      requestState: r1.requestState,
      inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
    })
  ).result;
  assert.is(r2.resultType, "task");
  assert.not.ok("requestState" in r2);
  const done = await until(r2.taskId, terminal);
  assert.is(done.result.content[0].text, "Hello, Alice! (from the task)");
});

test("cancel: acknowledged, the task ends cancelled and never changes again; listens hear notifications/tasks", async () => {
  const t = (await rpc("tools/call", { name: "slow_compute", arguments: { seconds: 60 } })).result;
  const ctrl = new AbortController();
  const res = (await rpc(
    "subscriptions/listen",
    { notifications: { taskIds: [t.taskId] } },
    WITH,
    ctrl.signal,
  )) as Response;
  const reader = res.body!.getReader();
  let text = "";
  const read = async (want: string) => {
    for (let i = 0; i < 50 && !text.includes(want); i++) text += new TextDecoder().decode((await reader.read()).value);
  };
  await read("acknowledged");
  assert.ok(text.includes(t.taskId), "the acknowledgement echoes the accepted taskIds");
  const ack = (await rpc("tasks/cancel", { taskId: t.taskId })).result;
  assert.is(ack.resultType, "complete");
  await read("notifications/tasks");
  const note = text
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)))
    .find((e) => e.method === "notifications/tasks");
  assert.equal([note.params.taskId, note.params.status], [t.taskId, "cancelled"]);
  ctrl.abort();
  await new Promise((r) => setTimeout(r, 100));
  assert.is((await rpc("tasks/get", { taskId: t.taskId })).result.status, "cancelled");
  assert.is(
    (await rpc("tasks/cancel", { taskId: t.taskId })).result.resultType,
    "complete",
    "cancelling a terminal task is an idempotent ack",
  );
  const noExt = await rpc("subscriptions/listen", { notifications: { taskIds: [t.taskId] } }, WITHOUT);
  assert.is(noExt.error.code, -32021, "taskIds need the extension declared on the listen");
});

test.run();
