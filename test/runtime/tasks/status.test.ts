// ctx.setStatusMessage in the 2026-07-28 extension: the same call as in 2025-11-25 tasks
// (legacy.test.ts), reaching tasks/get's statusMessage once the call is a task, a no-op before.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { MemoryTaskStore, type HandlerContext } from "@mcpgen/runtime";
import { ModernTasks, RequestStateCodec, TASKS_EXTENSION } from "@mcpgen/runtime/internal";

function rc(): any {
  return {
    requestId: 1,
    method: "tools/call",
    signal: new AbortController().signal,
    cancelled: false,
    transportContext: undefined,
    meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } },
    },
    sendProgress: async () => {},
    sendNotification: async () => {},
    sendRequest: async () => ({}),
  };
}

test("setStatusMessage is a no-op before the call is a task and sets statusMessage after", async () => {
  const changes: any[] = [];
  const tasks = new ModernTasks(new RequestStateCodec(), {
    store: new MemoryTaskStore(),
    graceMs: 1000,
    onchange: (t) => void changes.push(t),
    report: (e) => assert.unreachable(e.message),
  });
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const body = async (ctx: HandlerContext) => {
    await ctx.setStatusMessage("before");
    await ctx.runAsTask();
    await ctx.setStatusMessage("x".repeat(2000));
    await gate;
    return { content: [] };
  };
  const created = await tasks.call({ name: "t" }, rc(), body as never);
  assert.is(created.resultType, "task");
  assert.is(created.statusMessage, undefined, "a status set before the task existed is not kept");
  let got: any;
  for (let i = 0; i < 50; i++) {
    got = await tasks.get({ taskId: created.taskId }, rc());
    if (got.statusMessage !== undefined) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  assert.is(got.statusMessage.length, 1001, "bounded to 1000 characters and an ellipsis");
  assert.ok(
    changes.some((c) => c.statusMessage === got.statusMessage),
    "the change is announced (notifications/tasks)",
  );
  release();
});

test.run();
