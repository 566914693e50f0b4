// The client side of the 2025-11-25 core tasks against a scripted legacy server on an in-memory
// pair: as requestor (task-augmented tools/call for required tools, polling bounded by
// pollIntervalMs, status notifications ending waits early, tasks/result for the payload or the
// error, abort -> tasks/cancel, handles) and as receiver (sampling run as a client-side task,
// served through tasks/get, tasks/result, tasks/list, tasks/cancel; unknown ids are -32602).
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  connectMcpClient,
  createMemoryTransportPair,
  McpError,
  MemoryTaskStore,
  TaskCancelledError,
  type McpClientOptions,
  type Params,
  type ServerSession,
} from "@mcpgen/runtime";
import { createServerSession, pollDelay } from "@mcpgen/runtime/internal";
import { latest } from "../helpers/binding.js";

const clientInfo = { name: "legacy-tasks", version: "1.0.0" };
const TASKS = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
const TOOLS = [
  { name: "job", inputSchema: { type: "object" }, execution: { taskSupport: "required" } },
  { name: "maybe", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } },
  { name: "plain", inputSchema: { type: "object" } },
];
const task = (status: string, extra: object = {}) => ({
  taskId: "t1",
  status,
  createdAt: "2026-01-01T00:00:00Z",
  lastUpdatedAt: "2026-01-01T00:00:00Z",
  ttl: 60_000,
  pollInterval: 1,
  ...extra,
});

type Script = { [method: string]: (p: Params) => unknown };

async function pair(script: Script, options: Partial<McpClientOptions> = {}, serverTasks: object = TASKS) {
  const [a, b] = createMemoryTransportPair();
  const seen: { method: string; params: Params }[] = [];
  const handlers: { [m: string]: (p: Params) => unknown } = {};
  for (const m of ["tools/list", "tools/call", "tasks/get", "tasks/result", "tasks/cancel"]) {
    handlers[m] = async (p: Params) => {
      seen.push({ method: m, params: p });
      const h = script[m] ?? (m === "tools/list" ? () => ({ tools: TOOLS }) : undefined);
      if (h === undefined) throw new McpError(-32601, `no ${m}`);
      return h(p);
    };
  }
  const server: ServerSession = await createServerSession({
    transport: b,
    bindings: [latest],
    serverInfo: { name: "scripted", version: "1" },
    capabilities: { tools: {}, tasks: serverTasks },
    handlers: handlers as never,
  });
  const client = await connectMcpClient(a, { bindings: [latest], clientInfo, timeout: 2000, tasks: true, ...options });
  await server.initialized;
  return { server, client, seen };
}

test("pollDelay: the server's suggestion clamped to the caller's bounds; the previous one when none", () => {
  assert.is(pollDelay(1, undefined), 20);
  assert.is(pollDelay(10 ** 9, undefined), 30_000);
  assert.is(pollDelay(5000, { minMs: 50, maxMs: 200 }), 200);
  assert.is(pollDelay(10, { minMs: 50, maxMs: 200 }), 50);
  assert.is(pollDelay(undefined, undefined, 700), 700);
  assert.is(pollDelay(Number.NaN, { defaultMs: 300 }), 300);
});

test("a required tool goes out with params.task; polls tasks/get, then tasks/result gives the payload", async () => {
  let polls = 0;
  const { client, seen } = await pair({
    "tools/call": () => ({ task: task("working") }),
    "tasks/get": () => (++polls < 3 ? task("working") : task("completed")),
    "tasks/result": () => ({
      content: [{ type: "text", text: "done" }],
      _meta: { "io.modelcontextprotocol/related-task": { taskId: "t1" } },
    }),
  });
  await client.listTools();
  const r = await client.callTool("job", {});
  assert.equal(r.content, [{ type: "text", text: "done" }]);
  assert.equal(seen.find((s) => s.method === "tools/call")!.params.task, {});
  assert.is(polls, 3);
  assert.equal(
    seen.filter((s) => s.method === "tasks/result").map((s) => s.params.taskId),
    ["t1"],
  );
  await client.close();
});

test("forbidden or unlisted tools go out plain; optional ones only when asked, with a ttl", async () => {
  const { client, seen } = await pair({
    "tools/call": (p) => (p.task !== undefined ? { task: task("completed") } : { content: [] }),
    "tasks/result": () => ({ content: [{ type: "text", text: "as task" }] }),
  });
  await client.listTools();
  assert.equal((await client.callTool("plain", {})).content, []);
  assert.equal((await client.callTool("maybe", {})).content, []);
  assert.equal((await client.callTool("maybe", {}, { task: { ttlMs: 5000 } })).content, [
    { type: "text", text: "as task" },
  ]);
  const calls = seen.filter((s) => s.method === "tools/call").map((s) => s.params.task);
  assert.equal(calls, [undefined, undefined, { ttl: 5000 }]);
  await client.close();
});

test("without tasks declared by the client, or by the server, nothing is augmented", async () => {
  for (const [options, serverTasks] of [
    [{ tasks: false }, TASKS],
    [{}, { list: {}, cancel: {} }],
  ] as const) {
    const { client, seen } = await pair({ "tools/call": () => ({ content: [] }) }, options, serverTasks);
    await client.listTools();
    await client.callTool("job", {});
    assert.is(seen.find((s) => s.method === "tools/call")!.params.task, undefined);
    const e = await client.startToolTask("job", {}).catch((x: unknown) => x);
    assert.match(String(e), /Cannot start job as a task/);
    await client.close();
  }
});

test("a status notification ends a wait early; a failed task's JSON-RPC error comes from tasks/result", async () => {
  let t0 = 0;
  const { client, server } = await pair({
    "tools/call": () => {
      t0 = Date.now();
      setTimeout(() => void server.notify("notifications/tasks/status", task("failed", { pollInterval: 60_000 })), 30);
      return { task: task("working", { pollInterval: 60_000 }) };
    },
    "tasks/get": () => task("working", { pollInterval: 60_000 }),
    "tasks/result": () => {
      throw new McpError(-32603, "the job broke");
    },
  });
  await client.listTools();
  const e = await client.callTool("job", {}).catch((x: unknown) => x);
  assert.instance(e, McpError);
  assert.is((e as McpError).message, "the job broke");
  assert.ok(Date.now() - t0 < 5000, "did not wait the 30 s poll interval (the notification woke it)");
  await client.close();
});

test("pollIntervalMs bounds the server's suggestion (a 1 ms suggestion is polled no faster than min)", async () => {
  const at: number[] = [];
  const { client } = await pair(
    {
      "tools/call": () => ({ task: task("working") }),
      "tasks/get": () => (at.push(Date.now()), at.length < 4 ? task("working") : task("completed")),
      "tasks/result": () => ({ content: [] }),
    },
    { pollIntervalMs: { min: 40 } },
  );
  await client.listTools();
  await client.callTool("job", {});
  for (let i = 1; i < at.length; i++) assert.ok(at[i]! - at[i - 1]! >= 35, `poll ${i} after ${at[i]! - at[i - 1]!} ms`);
  await client.close();
});

test("abort sends tasks/cancel; a cancelled task throws TaskCancelledError; handles start, resume, cancel", async () => {
  let state = "working";
  const { client, seen } = await pair({
    "tools/call": () => ({ task: task("working") }),
    "tasks/get": () => task(state),
    "tasks/cancel": () => ((state = "cancelled"), task("cancelled")),
    "tasks/result": () => ({ content: [] }),
  });
  await client.listTools();
  const ctrl = new AbortController();
  setTimeout(() => ctrl.abort(new Error("stop")), 40);
  await client.callTool("job", {}, { signal: ctrl.signal }).then(
    () => assert.unreachable(),
    (e: unknown) => assert.match(String(e), /stop/),
  );
  assert.equal(
    seen.filter((s) => s.method === "tasks/cancel").map((s) => s.params.taskId),
    ["t1"],
  );
  assert.instance(await client.callTool("job", {}).catch((x: unknown) => x), TaskCancelledError);

  state = "working";
  const h = await client.startToolTask("job", {});
  assert.is(h.taskId, "t1");
  assert.is((await h.status()).status, "working");
  const again = await client.resumeTask("t1");
  assert.equal((await again.cancel()).status, "cancelled");
  const statuses: string[] = [];
  for await (const s of h) statuses.push(s.status);
  assert.equal(statuses, ["cancelled"]);
  await client.close();
});

test("receiver: sampling with params.task becomes a client task served by tasks/get, result, list, cancel", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const notes: Params[] = [];
  let aborted = false;
  const { client, server } = await pair(
    {},
    {
      handlers: {
        sampling: async (p, ctx) => {
          ctx.signal.addEventListener("abort", () => (aborted = true));
          if ((p.messages[0]!.content as { text: string }).text === "block") await new Promise(() => {});
          await gate;
          return { role: "assistant", content: { type: "text", text: "sampled" }, model: "m" };
        },
      },
    },
  );
  server.setNotificationHandler("notifications/tasks/status", (p) => void notes.push(p as Params));
  assert.equal((client.session.capabilities as { tasks?: unknown }).tasks, {
    list: {},
    cancel: {},
    requests: { sampling: { createMessage: {} } },
  });
  const ask = (text: string) => ({
    task: { ttl: 60_000 },
    messages: [{ role: "user", content: { type: "text", text } }],
    maxTokens: 5,
  });
  const created = await server.request("sampling/createMessage", ask("hi"), { skipValidation: true });
  const id = (created.task as { taskId: string }).taskId;
  assert.ok(id.length >= 16, "an unguessable id");
  assert.is((created.task as { status: string }).status, "working");
  assert.is((await server.request("tasks/get", { taskId: id })).status, "working");
  const pending = server.request("tasks/result", { taskId: id });
  release();
  const result = await pending;
  assert.equal([result.model, result._meta], ["m", { "io.modelcontextprotocol/related-task": { taskId: id } }]);
  assert.is((await server.request("tasks/get", { taskId: id })).status, "completed");
  assert.ok(
    notes.some((n) => n.taskId === id && n.status === "completed"),
    "notifications/tasks/status on completion",
  );

  const blocked = await server.request("sampling/createMessage", ask("block"), { skipValidation: true });
  const bid = (blocked.task as { taskId: string }).taskId;
  const list = await server.request("tasks/list", {});
  assert.equal(
    (list.tasks as { taskId: string }[]).map((t) => t.taskId),
    [id, bid],
  );
  assert.is((await server.request("tasks/cancel", { taskId: bid })).status, "cancelled");
  assert.ok(aborted, "cancel aborts the handler's signal");
  assert.is((await server.request("tasks/get", { taskId: bid })).status, "cancelled");
  for (const [m, p] of [
    ["tasks/get", { taskId: "nope" }],
    ["tasks/result", { taskId: "nope" }],
    ["tasks/cancel", { taskId: id }],
    ["tasks/list", { cursor: "nope" }],
  ] as const) {
    const e = await server.request(m, p).catch((x: unknown) => x);
    assert.is((e as McpError).code, -32602, `${m} ${JSON.stringify(p)}`);
  }
  const plain = await server.request("sampling/createMessage", {
    messages: [{ role: "user", content: { type: "text", text: "now" } }],
    maxTokens: 5,
  });
  assert.is(plain.model, "m", "without params.task the handler answers directly");
  await client.close();
});

test("receiver: a full client task store refuses new tasks with a clear -32603; the connection survives", async () => {
  const { client, server } = await pair(
    {},
    {
      tasks: { store: new MemoryTaskStore({ maxTasks: 1 }) },
      handlers: { sampling: () => new Promise(() => {}) },
    },
  );
  const ask = { task: {}, messages: [{ role: "user", content: { type: "text", text: "x" } }], maxTokens: 5 };
  await server.request("sampling/createMessage", ask, { skipValidation: true });
  const e = await server.request("sampling/createMessage", ask, { skipValidation: true }).catch((x: unknown) => x);
  assert.is((e as McpError).code, -32603);
  assert.match((e as McpError).message, /at most 1/);
  assert.is(((await server.request("tasks/list", {})).tasks as unknown[]).length, 1);
  await client.close();
});

test.run();
