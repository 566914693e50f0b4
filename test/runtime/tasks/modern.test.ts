// The server side of the tasks extension without a transport: a handler that asks before and
// after becoming a task (positional keys never reuse an earlier answer), owner binding, and the
// status machine as tasks/get shows it.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { MemoryTaskStore, McpError, type HandlerContext } from "@mcpgen/runtime";
import { ModernTasks, RequestStateCodec, TASKS_EXTENSION, type ModernTasksOptions } from "@mcpgen/runtime/internal";

const form = {
  message: "name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } } },
} as const;

function rc(
  auth?: { subject: string },
  caps: object = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } },
): any {
  return {
    requestId: 1,
    method: "tools/call",
    signal: new AbortController().signal,
    cancelled: false,
    transportContext: auth === undefined ? undefined : { auth: { ...auth, scopes: [] } },
    meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": caps,
    },
    sendProgress: async () => {},
    sendNotification: async () => {},
    sendRequest: async () => ({}),
  };
}

function setup(options: Partial<ModernTasksOptions> = {}) {
  const errors: Error[] = [];
  const tasks = new ModernTasks(new RequestStateCodec(), {
    store: new MemoryTaskStore(),
    graceMs: 1000,
    pollIntervalMs: 50,
    report: (e) => errors.push(e),
    ...options,
  });
  return { tasks, errors };
}

async function until(tasks: ModernTasks, taskId: string, status: string, r = rc()): Promise<any> {
  for (let i = 0; i < 100; i++) {
    const t = await tasks.get({ taskId }, r);
    if (t.status === status) return t;
    await new Promise((res) => setTimeout(res, 5));
  }
  throw new Error(`never ${status}`);
}

test("input before runAsTask is MRTR, input after it is task-phase, with keys that never repeat", async () => {
  const { tasks, errors } = setup();
  const body = async (ctx: HandlerContext) => {
    const a = await ctx.client.elicit(form);
    await ctx.runAsTask();
    const b = await ctx.client.elicit(form);
    return { content: [{ type: "text", text: `${a.content?.name}+${b.content?.name}` }] };
  };
  const first = await tasks.call({ name: "t" }, rc(), body as never);
  assert.is(first.resultType, "input_required");
  assert.equal(Object.keys(first.inputRequests as object), ["elicitation-1"]);
  const params = {
    name: "t",
    requestState: first.requestState,
    inputResponses: { "elicitation-1": { action: "accept", content: { name: "A" } } },
  };
  const created = await tasks.call(params, rc(), body as never);
  assert.is(created.resultType, "task");
  const waiting = await until(tasks, created.taskId as string, "input_required");
  assert.equal(
    Object.keys(waiting.inputRequests),
    ["elicitation-2"],
    "the task-phase call is numbered after the request-phase one",
  );
  await tasks.update(
    { taskId: created.taskId, inputResponses: { "elicitation-2": { action: "accept", content: { name: "B" } } } },
    rc(),
  );
  const done = await until(tasks, created.taskId as string, "completed");
  assert.equal(done.result.content, [{ type: "text", text: "A+B" }]);
  assert.is(tasks.size, 0, "a finished task holds no run");
  assert.equal(errors, []);
});

test("tasks are bound to their creator's principal; other principals and unknown ids get -32602", async () => {
  const { tasks } = setup();
  const body = async (ctx: HandlerContext) => {
    await ctx.runAsTask();
    return { content: [] };
  };
  const created = await tasks.call({ name: "t" }, rc({ subject: "alice" }), body as never);
  await until(tasks, created.taskId as string, "completed", rc({ subject: "alice" }));
  for (const who of [rc({ subject: "bob" }), rc()]) {
    const e = await tasks.get({ taskId: created.taskId }, who).catch((x: unknown) => x);
    assert.instance(e, McpError);
    assert.is((e as McpError).code, -32602);
  }
  const bad = await tasks.get({ taskId: 7 }, rc()).catch((x: unknown) => x);
  assert.is((bad as McpError).code, -32602);
  const gated = await tasks.get({ taskId: created.taskId }, rc({ subject: "alice" }, {})).catch((x: unknown) => x);
  assert.is((gated as McpError).code, -32021);
});

test("a cancelled task stays cancelled although its run then finishes", async () => {
  const { tasks, errors } = setup();
  let release!: () => void;
  const body = async (ctx: HandlerContext) => {
    await ctx.runAsTask();
    await new Promise<void>((r) => (release = r));
    return { content: [{ type: "text", text: "late" }] };
  };
  const created = await tasks.call({ name: "t" }, rc(), body as never);
  assert.equal(await tasks.cancel({ taskId: created.taskId }, rc()), {});
  release();
  await new Promise((r) => setTimeout(r, 10));
  const t = await tasks.get({ taskId: created.taskId }, rc());
  assert.equal([t.status, "result" in t], ["cancelled", false]);
  assert.equal(errors, []);
});

test("quotas: one principal's running tasks trip maxRunningPerOwner, the callers without authorization share one; the server's retention holds", async () => {
  const { tasks, errors } = setup({ maxRunning: 5, maxRunningPerOwner: 2, defaultTtlMs: 30_000, maxTtlMs: 60_000 });
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const body = async (ctx: HandlerContext) => {
    await ctx.runAsTask();
    await held;
    return { content: [] };
  };
  const outcome = (r: ReturnType<typeof rc>) =>
    tasks.call({ name: "t" }, r, body as never).then(
      (t) => t.ttlMs,
      (e: McpError) => [e.code, e.data],
    );
  const refused = [-32603, { limit: "maxRunningPerOwner", max: 2 }];
  assert.equal(
    [
      await outcome(rc({ subject: "alice" })),
      await outcome(rc({ subject: "alice" })),
      await outcome(rc({ subject: "alice" })),
    ],
    [30_000, 30_000, refused],
  );
  assert.equal(
    [await outcome(rc()), await outcome(rc()), await outcome(rc()), await outcome(rc({ subject: "bob" }))],
    [30_000, 30_000, refused, 30_000],
  );
  const e = await tasks.call({ name: "t" }, rc({ subject: "carol" }), body as never).catch((x: McpError) => x);
  assert.equal(
    [(e as McpError).data, (e as McpError).message],
    [{ limit: "maxRunning", max: 5 }, "Internal error: this server runs at most 5 tasks at once; retry later"],
  );
  release();
  for (let i = 0; i < 100 && tasks.size > 0; i++) await new Promise((r) => setTimeout(r, 5));
  assert.is(await outcome(rc({ subject: "alice" })), 30_000, "finished runs free their owner's quota");
  assert.equal(errors, []);
  assert.throws(() => setup({ maxRunning: 2, maxRunningPerOwner: 3 }), /maxRunning >= maxRunningPerOwner >= 1/);
  assert.throws(() => setup({ defaultTtlMs: 10, maxTtlMs: 5 }), /maxTtlMs >= defaultTtlMs/);
});

test.run();
