// 2025-11-25 core tasks on the "everything" example as real processes: over stdio (raw NDJSON,
// one connection, a 2026-07-28 request on the same process) and over Streamable HTTP (raw fetch,
// two sessions): CreateTaskResult, progress and status notifications after it, tasks/result
// carrying the task's elicitation on its own SSE stream, cancel, foreign ids, taskSupport errors.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { SseDecoder } from "@mcpgen/runtime/http";
import { mainJs, startEverything, waitExit, type EverythingProcess } from "./helpers/everything-process.js";

const RELATED = "io.modelcontextprotocol/related-task";
const CAPS = { elicitation: {}, tasks: {} };
const init = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: CAPS, clientInfo: { name: "raw", version: "1" } },
});

// ---- stdio

const child = spawn(process.execPath, [mainJs, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
let stderr = "";
child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
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
    if (left <= 0)
      throw new Error(`no matching message within ${ms} ms; have ${JSON.stringify(inbox)}; stderr: ${stderr}`);
    await new Promise<void>((r) => {
      wake = r;
      setTimeout(r, left);
    });
  }
}
let nextId = 1;
async function rpc(method: string, params: object): Promise<any> {
  const id = nextId++;
  send({ jsonrpc: "2.0", id, method, params });
  return next((m) => m.id === id && !("method" in m));
}

test("stdio: initialize advertises tasks; a task-augmented call answers at once, reports progress and status, and tasks/result gives its result", async () => {
  send(init(nextId++));
  const hello = await next((m) => m.id === 1);
  assert.equal(hello.result.capabilities.tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  const tools = (await rpc("tools/list", {})).result.tools;
  assert.equal(tools.find((t: any) => t.name === "failing_job").execution, { taskSupport: "required" });
  const created = (
    await rpc("tools/call", {
      name: "slow_compute",
      arguments: { seconds: 0.3, label: "x" },
      task: { ttl: 30_000 },
      _meta: { progressToken: "p" },
    })
  ).result.task;
  assert.equal([created.status, created.ttl, typeof created.pollInterval], ["working", 30_000, "number"]);
  const progress = await next((m) => m.method === "notifications/progress");
  assert.equal(
    progress.params,
    { progressToken: "p", progress: 1, total: 2, message: "halfway" },
    "the call's progress token stays valid after CreateTaskResult",
  );
  const status = await next(
    (m) => m.method === "notifications/tasks/status" && m.params.statusMessage === "computing x",
  );
  assert.is(status.params.taskId, created.taskId);
  const result = (await rpc("tasks/result", { taskId: created.taskId })).result;
  assert.equal(result.content, [{ type: "text", text: "Computed x after 0.3s" }]);
  assert.equal(result._meta[RELATED], { taskId: created.taskId });
  assert.is((await rpc("tasks/get", { taskId: created.taskId })).result.status, "completed");
});

test("stdio: taskSupport errors; input_required is served on tasks/result; failures; cancel", async () => {
  assert.is(
    (await rpc("tools/call", { name: "failing_job", arguments: {} })).error.code,
    -32601,
    "required tool without params.task",
  );
  assert.is(
    (await rpc("tools/call", { name: "greet", arguments: { name: "a" }, task: {} })).error.code,
    -32601,
    "forbidden tool with params.task",
  );
  const ask = (await rpc("tools/call", { name: "confirm_delete", arguments: { filename: "a.txt" }, task: {} })).result
    .task;
  await next(
    (m) =>
      m.method === "notifications/tasks/status" &&
      m.params.taskId === ask.taskId &&
      m.params.status === "input_required",
  );
  const id = nextId++;
  send({ jsonrpc: "2.0", id, method: "tasks/result", params: { taskId: ask.taskId } });
  const question = await next((m) => m.method === "elicitation/create");
  assert.equal(question.params._meta[RELATED], { taskId: ask.taskId });
  send({ jsonrpc: "2.0", id: question.id, result: { action: "accept", content: { confirm: true } } });
  const answered = await next((m) => m.id === id && !("method" in m));
  assert.is(answered.result.content[0].text, "Deleted a.txt");
  const failing = (await rpc("tools/call", { name: "failing_job", arguments: {}, task: {} })).result.task;
  const failed = (await rpc("tasks/result", { taskId: failing.taskId })).result;
  assert.is(failed.isError, true);
  assert.is(
    (await rpc("tasks/get", { taskId: failing.taskId })).result.status,
    "failed",
    "a tool error fails the task (2025-11-25)",
  );
  const crash = (await rpc("tools/call", { name: "protocol_error_job", arguments: {}, task: {} })).result.task;
  const error = (await rpc("tasks/result", { taskId: crash.taskId })).error;
  assert.equal([error.code, error.data], [-32603, { job: "protocol_error_job" }]);
  const slow = (await rpc("tools/call", { name: "slow_compute", arguments: { seconds: 60 }, task: {} })).result.task;
  const cancelled = (await rpc("tasks/cancel", { taskId: slow.taskId })).result;
  assert.equal([cancelled.taskId, cancelled.status], [slow.taskId, "cancelled"]);
  assert.is((await rpc("tasks/cancel", { taskId: slow.taskId })).error.code, -32602);
  const listed = (await rpc("tasks/list", {})).result.tasks.map((t: any) => t.taskId);
  for (const t of [ask, failing, crash, slow]) assert.ok(listed.includes(t.taskId));
});

test("stdio: the same process keeps the 2026-07-28 extension for modern requests, which cannot reach the legacy session's tasks", async () => {
  const listed = (await rpc("tasks/list", {})).result.tasks;
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
    "io.modelcontextprotocol/clientInfo": { name: "m", version: "1" },
  };
  const modern = (await rpc("tools/call", { name: "slow_compute", arguments: { seconds: 0.5 }, _meta: meta })).result;
  assert.is(modern.resultType, "task");
  assert.is((await rpc("tasks/get", { taskId: listed[0].taskId, _meta: meta })).error.code, -32602);
  assert.is(
    (await rpc("tasks/get", { taskId: modern.taskId })).error.code,
    -32602,
    "nor the legacy session a 2026 task: tasks/list never showed it either",
  );
  assert.not.ok((await rpc("tasks/list", {})).result.tasks.some((t: any) => t.taskId === modern.taskId));
  child.stdin!.end();
  assert.equal(await waitExit(child, 5000), { code: 0, signal: null });
});

// ---- Streamable HTTP

let server: EverythingProcess | undefined;

// A failed test must not leave processes behind.
test.after(async () => {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  if (server !== undefined && server.child.exitCode === null && server.child.signalCode === null) await server.stop();
});
const ACCEPT = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** POSTs `message`, hands every JSON-RPC message of the reply (JSON or SSE) to `each`, resolves with the response to `id`. */
async function post(
  sid: string | undefined,
  message: any,
  each: (m: any) => void | Promise<void> = () => {},
): Promise<{ reply: any; sid: string | undefined }> {
  const headers: Record<string, string> = {
    ...ACCEPT,
    "mcp-protocol-version": "2025-11-25",
    ...(sid ? { "mcp-session-id": sid } : {}),
  };
  const res = await fetch(server!.url, { method: "POST", headers, body: JSON.stringify(message) });
  const session = res.headers.get("mcp-session-id") ?? sid;
  if (message.id === undefined || message.method === undefined) {
    assert.is(res.status, 202, "notifications and responses are accepted");
    return { reply: undefined, sid: session };
  }
  if ((res.headers.get("content-type") ?? "").startsWith("application/json"))
    return { reply: await res.json(), sid: session };
  const messages: any[] = [];
  const decoder = new SseDecoder({ onevent: (e) => e.data && messages.push(JSON.parse(e.data)) });
  const reader = res.body!.getReader();
  for (let i = 0; i < 1000; i++) {
    while (messages.length > 0) {
      const m = messages.shift();
      if (m.id === message.id && !("method" in m)) {
        await reader.cancel();
        return { reply: m, sid: session };
      }
      await each(m);
    }
    const chunk = await reader.read();
    if (chunk.done) break;
    decoder.push(chunk.value);
  }
  throw new Error(`no reply to ${message.method}`);
}

async function open(): Promise<{
  sid: string;
  call: (method: string, params: object, each?: (m: any) => void | Promise<void>) => Promise<any>;
}> {
  const { sid } = await post(undefined, init(0));
  await post(sid, { jsonrpc: "2.0", method: "notifications/initialized" });
  let id = 1;
  return {
    sid: sid!,
    call: async (method, params, each) => (await post(sid, { jsonrpc: "2.0", id: id++, method, params }, each)).reply,
  };
}

test("HTTP: the task's elicitation travels on the tasks/result stream; another session cannot see or touch the task", async () => {
  server = await startEverything();
  const a = await open();
  const b = await open();
  const task = (
    await a.call("tools/call", { name: "confirm_delete", arguments: { filename: "b.txt" }, task: { ttl: 60_000 } })
  ).result.task;
  assert.is(task.status, "working");
  const asked: any[] = [];
  const result = await a.call("tasks/result", { taskId: task.taskId }, async (m) => {
    if (m.method !== "elicitation/create") return;
    asked.push(m);
    await post(a.sid, { jsonrpc: "2.0", id: m.id, result: { action: "accept", content: { confirm: false } } });
  });
  assert.is(asked.length, 1, "the elicitation came on the tasks/result stream");
  assert.equal(asked[0].params._meta[RELATED], { taskId: task.taskId });
  assert.is(result.result.content[0].text, "Kept b.txt (accept)");
  assert.equal(result.result._meta[RELATED], { taskId: task.taskId });
  for (const m of ["tasks/get", "tasks/result", "tasks/cancel"])
    assert.is((await b.call(m, { taskId: task.taskId })).error.code, -32602, m);
  assert.equal((await b.call("tasks/list", {})).result.tasks, []);
  assert.equal(
    (await a.call("tasks/list", {})).result.tasks.map((t: any) => t.taskId),
    [task.taskId],
  );
  const slow = (await a.call("tools/call", { name: "slow_compute", arguments: { seconds: 60 }, task: {} })).result.task;
  assert.is((await a.call("tasks/cancel", { taskId: slow.taskId })).result.status, "cancelled");
  assert.is((await a.call("tasks/get", { taskId: slow.taskId })).result.status, "cancelled");
  assert.is((await a.call("tools/call", { name: "test_tool_with_task", arguments: {} })).error.code, -32601);
  assert.equal(await server.stop(), { code: 0, signal: null }, `stderr: ${server.stderr()}`);
  server = undefined;
});

test.run();
