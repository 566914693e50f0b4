// 2025-11-25 core tasks on the server, over the in-memory transport: CreateTaskResult, tasks/get,
// tasks/result (blocking, the original outcome, input_required served on its request), tasks/list
// (paginated, only the caller's), tasks/cancel, status notifications, taskSupport errors, owner
// binding per connection, the limits, expiry, and revisions without tasks.
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  createMcpServer,
  createMemoryTransportPair,
  McpError,
  MemoryTaskStore,
  toolError,
  type ClientSession,
  type ConnectOptions,
  type HandlerContext,
  type McpDefinition,
  type McpServer,
  type Validator,
} from "@mcpgen/runtime";
import { connectClient } from "@mcpgen/runtime/internal";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { bindings } from "../helpers/binding.js";
import { rawPeer } from "../helpers/peer.js";

const anyObject = ((d: unknown) => typeof d === "object" && d !== null && !Array.isArray(d)) as Validator;
const REV = "2025-11-25";

function definition(revisions = [REV, "2025-06-18"], pageSize = 100): McpDefinition {
  const names = ["job", "must", "plain", "ask", "boom", "bad"];
  const tools = names.map((name) => ({
    name,
    description: name,
    inputSchema: { type: "object" },
    ...(name === "plain" ? {} : { execution: { taskSupport: name === "must" ? "required" : "optional" } }),
  }));
  const lists = {
    serverInfo: { name: "t", version: "1" },
    capabilities: { tools: {}, logging: {} },
    tools,
    prompts: [],
    resources: [],
    resourceTemplates: [],
  };
  return {
    revisions,
    pageSize,
    published: Object.fromEntries(revisions.map((r) => [r, lists])),
    toolValidators: Object.fromEntries(names.map((n) => [n, { input: anyObject, output: null }])),
    members: { tools: Object.fromEntries(names.map((n) => [n, n])), prompts: {}, resources: {}, resourceTemplates: {} },
    toolTasks: { job: "optional", must: "required", ask: "optional", boom: "optional", bad: "optional" },
    tasks: () => import("@mcpgen/runtime/tasks/server"),
  };
}

/** Gates the "job" tool: each call waits for `release()`. */
let gate: { promise: Promise<void>; release: () => void };
function newGate() {
  let release!: () => void;
  gate = { promise: new Promise<void>((r) => (release = r)), release };
}

function handlers() {
  return {
    tools: {
      job: async (_: never, ctx: HandlerContext) => {
        await ctx.setStatusMessage("halfway");
        await ctx.log("info", "job started");
        await Promise.race([
          gate.promise,
          new Promise((_, reject) =>
            ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true }),
          ),
        ]);
        return "job done";
      },
      must: () => "must done",
      plain: () => "plain done",
      ask: async (_: never, ctx: HandlerContext) => {
        const r = await ctx.client.elicit({
          message: "name?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } } },
        });
        return `hello ${String(r.content?.name)}`;
      },
      boom: () => {
        throw new McpError(-32603, "Internal error: worker crashed", { worker: 7 });
      },
      bad: () => toolError("nothing to do"),
    },
  };
}

interface Setup {
  server: McpServer;
  store: MemoryTaskStore;
  errors: Error[];
  connect(
    caps?: object,
    revision?: string,
    options?: ConnectOptions,
  ): Promise<{ client: ClientSession; notes: any[]; elicited: any[] }>;
}

function setup(
  options: {
    maxRunning?: number;
    maxRunningPerOwner?: number;
    defaultTtlMs?: number;
    store?: MemoryTaskStore;
    pageSize?: number;
  } = {},
): Setup {
  const errors: Error[] = [];
  const { store: given, pageSize, ...bounds } = options;
  const store = given ?? new MemoryTaskStore();
  const server = createMcpServer(definition(undefined, pageSize), handlers() as never, {
    bindings,
    onerror: (e) => errors.push(e),
    tasks: { store, pollIntervalMs: 20, ...bounds },
  });
  return {
    server,
    store,
    errors,
    async connect(caps = { elicitation: {}, tasks: {} }, revision = REV, options = {}) {
      const [ct, st] = createMemoryTransportPair();
      await server.connect(st, options);
      // trustPeer: this test client reads CreateTaskResult from tools/call without a typed task API.
      const client = await connectClient({
        bindings,
        clientInfo: { name: "c", version: "1" },
        capabilities: caps as never,
        protocolVersion: revision,
        transport: ct,
        trustPeer: true,
      });
      const notes: any[] = [];
      const elicited: any[] = [];
      client.setNotificationHandler("notifications/tasks/status", (p) => void notes.push(p));
      client.setNotificationHandler("notifications/message", (p) => void notes.push({ log: p }));
      if ("elicitation" in caps) {
        client.setRequestHandler("elicitation/create", (p: any) => {
          elicited.push(p);
          return { action: "accept", content: { name: "Ada" } };
        });
      }
      return { client, notes, elicited };
    },
  };
}

const rq = (client: ClientSession, method: string, params: object): Promise<any> =>
  client.request(method, params as never);
const code = (e: unknown) => (e instanceof McpError ? e.code : e);
const call = (client: ClientSession, name: string, task?: object, meta?: object) =>
  rq(client, "tools/call", { name, arguments: {}, ...(task ? { task } : {}), ...(meta ? { _meta: meta } : {}) });

test("a definition whose tools may run as tasks but which has no tasks loader is refused at createMcpServer, naming the tools", () => {
  const { tasks: _tasks, ...withoutLoader } = definition();
  const handlers = {
    tools: Object.fromEntries(["job", "must", "plain", "ask", "boom", "bad"].map((n) => [n, () => "ok"])),
  };
  assert.throws(
    () => createMcpServer(withoutLoader, handlers as never, { bindings }),
    (e: Error) =>
      e instanceof TypeError &&
      /tools "job", "must", "ask", "boom", "bad" may run as tasks/.test(e.message) &&
      /@mcpgen\/runtime\/tasks\/server/.test(e.message) &&
      /regenerate/.test(e.message),
  );
  // without task tools the loader is not needed
  const plain = { ...withoutLoader, toolTasks: {} };
  createMcpServer(plain, handlers as never, { bindings });
});

test("initialize advertises tasks in 2025-11-25 only; tools/call with params.task answers CreateTaskResult and tasks/result the call's result", async () => {
  newGate();
  const s = setup();
  const { client, notes } = await s.connect();
  assert.equal(client.serverCapabilities.tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
  const created = (await call(client, "job", { ttl: 60_000 })).task as any;
  assert.is(created.status, "working");
  assert.is(created.ttl, 60_000);
  assert.is(created.pollInterval, 20);
  assert.ok(created.taskId.length >= 22 && created.createdAt === created.lastUpdatedAt);
  const pending = rq(client, "tasks/result", { taskId: created.taskId });
  await new Promise((r) => setTimeout(r, 20));
  const mid = await rq(client, "tasks/get", { taskId: created.taskId });
  assert.equal([mid.status, mid.statusMessage], ["working", "halfway"], "ctx.setStatusMessage reaches tasks/get");
  gate.release();
  const result = await pending;
  assert.equal(result.content, [{ type: "text", text: "job done" }]);
  assert.equal(result._meta, { "io.modelcontextprotocol/related-task": { taskId: created.taskId } });
  assert.equal(
    (await rq(client, "tasks/result", { taskId: created.taskId })).content,
    result.content,
    "a terminal task's result is given again",
  );
  assert.is((await rq(client, "tasks/get", { taskId: created.taskId })).status, "completed");
  assert.equal(
    notes
      .filter((n) => n.status !== undefined)
      .map((n) => n.status)
      .at(-1),
    "completed",
  );
  assert.ok(notes.every((n) => n.status === undefined || n.taskId === created.taskId));
  const log = notes.find((n) => n.log !== undefined)?.log;
  assert.equal(
    [log?.data, log?._meta],
    ["job started", { "io.modelcontextprotocol/related-task": { taskId: created.taskId } }],
    "a task's log messages carry related-task",
  );
  assert.is(s.server.legacyTasks!.size, 0);
  const old = await s.connect({}, "2025-06-18");
  assert.is(old.client.serverCapabilities.tasks, undefined, "2025-06-18 has no core tasks");
  assert.equal(
    (await call(old.client, "must", { ttl: 1 })).content,
    [{ type: "text", text: "must done" }],
    "params.task is ignored and every tool runs on the request",
  );
  assert.equal(s.errors, []);
  await s.server.close();
});

test("taskSupport: required without params.task and forbidden with it are -32601; optional works both ways", async () => {
  const s = setup();
  const { client } = await s.connect();
  assert.is(code(await call(client, "must").catch((e) => e)), -32601);
  assert.is(code(await call(client, "plain", {}).catch((e) => e)), -32601);
  assert.equal((await call(client, "plain")).content, [{ type: "text", text: "plain done" }]);
  assert.equal((await call(client, "bad")).isError, true, "optional without a task runs on the request");
  const t = (await call(client, "must", {})).task as any;
  assert.is((await rq(client, "tasks/result", { taskId: t.taskId })).content[0].text, "must done");
  assert.is(code(await call(client, "job", { ttl: -5 }).catch((e) => e)), -32602);
  await s.server.close();
});

test("failures: isError results fail the task but tasks/result gives the result; JSON-RPC errors come back as they were", async () => {
  const s = setup();
  const { client } = await s.connect();
  const bad = (await call(client, "bad", {})).task as any;
  const r = await rq(client, "tasks/result", { taskId: bad.taskId });
  assert.equal([r.isError, r.content[0].text], [true, "nothing to do"]);
  const got = await rq(client, "tasks/get", { taskId: bad.taskId });
  assert.equal([got.status, got.statusMessage], ["failed", "nothing to do"]);
  const boom = (await call(client, "boom", {})).task as any;
  const e = await rq(client, "tasks/result", { taskId: boom.taskId }).catch((x) => x);
  assert.instance(e, McpError);
  assert.equal([e.code, e.message, e.data], [-32603, "Internal error: worker crashed", { worker: 7 }]);
  assert.is((await rq(client, "tasks/get", { taskId: boom.taskId })).status, "failed");
  await s.server.close();
});

test("input_required: the elicitation goes out on tasks/result, tagged related-task, and the task resumes", async () => {
  const s = setup();
  const { client, notes, elicited } = await s.connect();
  const t = (await call(client, "ask", {})).task as any;
  let status = "";
  for (let i = 0; i < 50 && status !== "input_required"; i++) {
    await new Promise((r) => setTimeout(r, 5));
    status = (await rq(client, "tasks/get", { taskId: t.taskId })).status;
  }
  assert.is(status, "input_required");
  assert.equal(elicited, [], "nothing is asked before the client calls tasks/result");
  const result = await rq(client, "tasks/result", { taskId: t.taskId });
  assert.is(result.content[0].text, "hello Ada");
  assert.is(elicited.length, 1);
  assert.equal(elicited[0]._meta, { "io.modelcontextprotocol/related-task": { taskId: t.taskId } });
  assert.equal(
    notes.filter((n) => n.log === undefined).map((n) => n.status),
    ["input_required", "working", "completed"],
  );
  await s.server.close();
});

test("tasks/cancel: working -> cancelled for good; terminal, unknown and foreign ids are -32602; tasks/list pages only the caller's tasks", async () => {
  newGate();
  const s = setup({ pageSize: 2 });
  const a = await s.connect();
  const b = await s.connect();
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push(((await call(a.client, "job", {})).task as any).taskId);
  const foreign = ((await call(b.client, "job", {})).task as any).taskId;
  const first = await rq(a.client, "tasks/list", {});
  assert.is(first.tasks.length, 2);
  assert.type(first.nextCursor, "string");
  const second = await rq(a.client, "tasks/list", { cursor: first.nextCursor });
  assert.equal(
    [...first.tasks, ...second.tasks].map((t: any) => t.taskId),
    ids,
  );
  assert.is(second.nextCursor, undefined);
  assert.equal(
    (await rq(b.client, "tasks/list", {})).tasks.map((t: any) => t.taskId),
    [foreign],
  );
  assert.is(code(await rq(a.client, "tasks/list", { cursor: "nope" }).catch((e) => e)), -32602);
  for (const m of ["tasks/get", "tasks/result", "tasks/cancel"]) {
    assert.is(
      code(await rq(a.client, m, { taskId: foreign }).catch((e) => e)),
      -32602,
      `${m} of another session's task`,
    );
    assert.is(
      code(await rq(a.client, m, { taskId: "no-such-task" }).catch((e) => e)),
      -32602,
      `${m} of an unknown task`,
    );
  }
  const waiting = rq(a.client, "tasks/result", { taskId: ids[0] }).catch((e) => e);
  const cancelled = await rq(a.client, "tasks/cancel", { taskId: ids[0] });
  assert.equal([cancelled.taskId, cancelled.status], [ids[0], "cancelled"]);
  assert.is(code(await waiting), -32603, "a blocked tasks/result ends when the task is cancelled");
  gate.release();
  await new Promise((r) => setTimeout(r, 20));
  assert.is(
    (await rq(a.client, "tasks/get", { taskId: ids[0] })).status,
    "cancelled",
    "the handler's late end changes nothing",
  );
  assert.is((await rq(a.client, "tasks/get", { taskId: ids[1] })).status, "completed");
  assert.is(
    code(await rq(a.client, "tasks/cancel", { taskId: ids[0] }).catch((e) => e)),
    -32602,
    "cancelling a cancelled task",
  );
  assert.is(
    code(await rq(a.client, "tasks/cancel", { taskId: ids[1] }).catch((e) => e)),
    -32602,
    "cancelling a completed task",
  );
  await s.server.close();
});

test("limits: running tasks and stored tasks are capped with -32603; the TTL is clamped to the store's maximum; expired tasks are gone", async () => {
  newGate();
  // Per-owner quotas as large as they may be, so the whole server's bounds are what trips.
  const s = setup({
    maxRunning: 2,
    maxRunningPerOwner: 2,
    store: new MemoryTaskStore({
      maxTasks: 3,
      maxTasksPerOwner: 2,
      maxTtlMs: 200,
      defaultTtlMs: 100,
      sweepIntervalMs: 20,
    }),
  });
  const { client } = await s.connect();
  const other = (await s.connect()).client;
  const t1 = (await call(client, "job", { ttl: 10_000_000 })).task as any;
  assert.is(t1.ttl, 200, "the store's maximum TTL wins and tasks/get reports it");
  await call(client, "job", {});
  const refused = await call(client, "job", {}).catch((e) => e);
  assert.equal([refused.code, refused.data], [-32603, { limit: "maxRunning", max: 2 }]);
  assert.match(refused.message, /at most 2 tasks at once/);
  gate.release();
  await new Promise((r) => setTimeout(r, 20));
  await call(other, "must", {});
  const full = await call(other, "must", {}).catch((e) => e);
  assert.equal([full.code, full.data], [-32603, { limit: "maxTasks", max: 3 }]);
  await new Promise((r) => setTimeout(r, 260));
  assert.is(s.store.size, 0, "expired tasks leave the store");
  assert.is(code(await rq(client, "tasks/get", { taskId: t1.taskId }).catch((e) => e)), -32602);
  assert.is(s.server.legacyTasks!.size, 0);
  await s.server.close();
});

test("a closed connection's tasks are released (handlers stopped, records dropped); a named owner's and other connections' stay", async () => {
  newGate();
  const s = setup({ defaultTtlMs: 45_000 });
  const a = await s.connect();
  const b = await s.connect();
  const named = await s.connect(undefined, undefined, { taskOwner: "the-one-client" });
  const mine = [(await call(a.client, "job", {})).task as any, (await call(a.client, "must", {})).task as any];
  assert.is(mine[0].ttl, 45_000, "the server's defaultTtlMs applies when the caller asks none");
  const theirs = (await call(b.client, "job", { ttl: 60_000 })).task as any;
  const kept = (await call(named.client, "job", {})).task as any;
  for (let i = 0; i < 100 && s.server.legacyTasks!.size > 3; i++) await new Promise((r) => setTimeout(r, 5));
  assert.equal([s.store.size, s.server.legacyTasks!.size], [4, 3], 'the "must" task finished');
  await a.client.close();
  await named.client.close();
  for (let i = 0; i < 100 && s.store.size > 2; i++) await new Promise((r) => setTimeout(r, 5));
  assert.equal(
    [s.store.size, s.server.legacyTasks!.size],
    [2, 2],
    "only the closed anonymous connection's tasks (one running, one finished) left",
  );
  assert.is((await rq(b.client, "tasks/get", { taskId: theirs.taskId })).status, "working");
  assert.ok(
    await s.store.get(kept.taskId, "the-one-client"),
    "an owner given to connect() may come back (stdio, a durable store)",
  );
  assert.is(await s.store.get(mine[0].taskId), undefined);
  gate.release();
  await s.server.close();
  assert.equal(s.errors, []);
});

test("a closed connection is not held in memory by its tasks' day-long retention (heap: a WeakRef after GC)", async () => {
  newGate();
  const s = setup();
  // In a function of its own, so that nothing of the connection stays in this test's scope.
  const session = await (async () => {
    const [ct, st] = createMemoryTransportPair();
    const ref = new WeakRef(await s.server.connect(st));
    const client = await connectClient({
      bindings,
      clientInfo: { name: "c", version: "1" },
      capabilities: { tasks: {} } as never,
      protocolVersion: REV,
      transport: ct,
      trustPeer: true,
    });
    await call(client, "must", { ttl: 86_400_000 });
    await call(client, "job", { ttl: 86_400_000 });
    await new Promise((r) => setTimeout(r, 10));
    await client.close();
    return ref;
  })();
  // The aborted "job" handler ended; the test's own gate would otherwise hold its abort reason.
  gate.release();
  for (let i = 0; i < 20 && session.deref() !== undefined; i++) {
    await new Promise((r) => setTimeout(r, 10));
    setFlagsFromString("--expose-gc");
    (runInNewContext("gc") as () => void)();
  }
  assert.is(session.deref(), undefined, "the session was collected");
  assert.is(s.store.size, 0);
  await s.server.close();
});

test("the stored-task bounds configure the default store; beside a store of one's own they are refused", async () => {
  const plain = () =>
    createMcpServer(definition(), handlers() as never, { bindings, tasks: { maxTasks: 20, maxTasksPerOwner: 2 } });
  newGate();
  const server = plain();
  const [ct, st] = createMemoryTransportPair();
  await server.connect(st);
  const client = await connectClient({
    bindings,
    clientInfo: { name: "c", version: "1" },
    capabilities: { tasks: {} } as never,
    protocolVersion: REV,
    transport: ct,
    trustPeer: true,
  });
  await call(client, "must", {});
  await call(client, "must", {});
  const e = await call(client, "must", {}).catch((x) => x);
  assert.equal([e.code, e.data], [-32603, { limit: "maxTasksPerOwner", max: 2 }]);
  await server.close();
  assert.throws(
    () =>
      createMcpServer(definition(), handlers() as never, {
        bindings,
        tasks: { store: new MemoryTaskStore(), maxTasksPerOwner: 2 },
      }),
    /give them to your tasks.store/,
  );
});

test("an expiring task stops its handler; tasks/result waiting on it gets -32602", async () => {
  newGate();
  const s = setup({ store: new MemoryTaskStore({ maxTtlMs: 60_000, defaultTtlMs: 60_000 }) });
  const { client } = await s.connect();
  const t = (await call(client, "job", { ttl: 50 })).task as any;
  const e = await rq(client, "tasks/result", { taskId: t.taskId }).catch((x) => x);
  assert.is(code(e), -32602);
  assert.is(s.server.legacyTasks!.size, 0);
  assert.is(s.store.size, 0);
  await s.server.close();
});

test("stateless connections: owner-less tasks reached by id from any connection, no tasks.list, no input from the client", async () => {
  newGate();
  const s = setup();
  /** One stateless connection per request, as stateless Streamable HTTP makes them. */
  const once = async (id: number, method: string, params: object) => {
    const [ct, st] = createMemoryTransportPair();
    await s.server.connect(st, { stateless: { protocolVersion: REV } });
    const peer = rawPeer(ct);
    await peer.send({ jsonrpc: "2.0", id, method, params });
    return peer.next(2000);
  };
  const created = (await once(1, "tools/call", { name: "job", arguments: {}, task: {} })).result.task;
  assert.is((await once(2, "tasks/get", { taskId: created.taskId })).result.status, "working");
  assert.is(
    (await once(3, "tasks/list", {})).error.code,
    -32601,
    "a stateless server cannot tell requestors apart, so it lists nothing",
  );
  gate.release();
  const done = await once(4, "tasks/result", { taskId: created.taskId });
  assert.equal(done.result.content, [{ type: "text", text: "job done" }]);
  const asking = (await once(5, "tools/call", { name: "ask", arguments: {}, task: {} })).result.task;
  const r = await once(6, "tasks/result", { taskId: asking.taskId });
  assert.is(r.result.isError, true, "the elicitation cannot be sent: the tool fails instead of waiting forever");
  await s.server.close();
});

test.run();
