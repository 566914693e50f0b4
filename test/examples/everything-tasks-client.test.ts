// The generated EverythingClient as a task requestor in the 2026-07-28 era, against the everything
// example as a real process over Streamable HTTP and over stdio: the plain call waits for a task
// transparently; `.start` gives a typed handle (status, status changes, result, cancel); `.resume`
// reattaches by id from a second connection; tools that are never tasks have no `.start`.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { McpError, TaskCancelledError } from "@mcpgen/runtime";
import type { TaskInfo } from "@mcpgen/runtime/internal";
import { connectHttp } from "@mcpgen/runtime/http";
import { StdioClientTransport } from "@mcpgen/runtime/stdio";
import { createEverythingClient, type EverythingClient } from "../../examples/everything/src/mcp/client.js";
import { mainJs, startEverything, type EverythingProcess } from "./helpers/everything-process.js";

let server: EverythingProcess;
const opened: EverythingClient[] = [];
const options = {
  clientInfo: { name: "tasks-client", version: "1.0.0" },
  tasks: true,
  pollIntervalMs: { min: 20, max: 100 },
  handlers: { elicitation: () => ({ action: "accept" as const, content: { name: "Ada" } }) },
};

async function http(extra: object = {}): Promise<EverythingClient> {
  const c = await createEverythingClient(connectHttp(server.url), { ...options, ...extra });
  opened.push(c);
  return c;
}

const text = (r: { content: { type: string }[] }) =>
  r.content.map((b) => (b.type === "text" ? (b as unknown as { text: string }).text : `[${b.type}]`)).join("\n");

test.before(async () => {
  server = await startEverything();
});

test.after(async () => {
  for (const c of opened) await c.close();
  assert.equal(await server.stop(), { code: 0, signal: null }, `stderr: ${server.stderr()}`);
});

test("HTTP: the plain call waits for a task transparently; task-phase input goes through the handlers", async () => {
  const c = await http();
  assert.is(c.era, "modern");
  assert.is(text(await c.tools.slowCompute({ seconds: 0.3, label: "x" })), "Computed x after 0.3s");
  const failed = await c.tools.failingJob();
  assert.is(failed.isError, true, "a tool error completes the task with isError");
  assert.is(text(await c.tools.multiInput()), "First: accept Ada; second: accept Ada");
  const err = await c.tools.protocolErrorJob().catch((e: unknown) => e);
  assert.instance(err, McpError);
  assert.is((err as McpError).code, -32603);
});

test("HTTP: start -> handle with taskId, status changes in order, typed result", async () => {
  const c = await http();
  const handle = await c.tools.slowCompute.start({ seconds: 0.4, label: "h" });
  assert.type(handle.taskId, "string");
  const seen: TaskInfo[] = [];
  for await (const s of handle) seen.push(s);
  assert.is(seen[0]!.status, "working");
  assert.is(seen[seen.length - 1]!.status, "completed");
  assert.is(seen[0]!.taskId, handle.taskId);
  const r = await handle.result();
  assert.is(r.isError, false);
  assert.is(text(r), "Computed h after 0.4s");
  assert.is((await handle.status()).status, "completed");
});

test("HTTP: a call that finishes within the grace period has no task id; result() is its answer", async () => {
  const c = await http();
  const handle = await c.tools.slowCompute.start({ seconds: 0 });
  assert.is(handle.taskId, undefined);
  assert.is(text(await handle.result()), "Computed result after 0s");
});

test("HTTP: cancel ends the task cancelled; result() rejects with TaskCancelledError", async () => {
  const c = await http();
  const handle = await c.tools.slowCompute.start({ seconds: 60 });
  const after = await handle.cancel();
  assert.is(after.status, "cancelled");
  const e = await handle.result().catch((x: unknown) => x);
  assert.instance(e, TaskCancelledError);
  assert.is((e as TaskCancelledError).taskId, handle.taskId);
});

test("HTTP: abort of a transparent call cancels the task on the server", async () => {
  const c = await http();
  const ctrl = new AbortController();
  const started = c.tools.slowCompute.start({ seconds: 60 });
  const handle = await started;
  setTimeout(() => ctrl.abort(new Error("gave up")), 50);
  await handle.result({ signal: ctrl.signal }).then(
    () => assert.unreachable("aborted"),
    (e: unknown) => assert.match(String(e), /gave up/),
  );
  const other = await http();
  const status = await (await other.tools.slowCompute.resume(handle.taskId!)).status();
  assert.is(status.status, "cancelled", "the abort sent tasks/cancel");
});

test("HTTP: resume by id from another connection (a restarted client) gets the typed result", async () => {
  const a = await http();
  const handle = await a.tools.slowCompute.start({ seconds: 0.3, label: "later" });
  const id = handle.taskId!;
  await a.close();
  const b = await http();
  const again = await b.tools.slowCompute.resume(id);
  assert.is(again.taskId, id);
  assert.is(text(await again.result()), "Computed later after 0.3s");
  const unknown = await b.tools.slowCompute.resume("no-such-task").catch((e: unknown) => e);
  assert.instance(unknown, McpError);
  assert.is((unknown as McpError).code, -32602);
});

test("HTTP: a cancelled task never changes again; cancelling it again changes nothing", async () => {
  const c = await http();
  const handle = await c.tools.slowCompute.start({ seconds: 60 });
  assert.is((await handle.cancel()).status, "cancelled");
  await new Promise((r) => setTimeout(r, 200));
  assert.is((await handle.status()).status, "cancelled");
  assert.is(
    (await handle.cancel()).status,
    "cancelled",
    "2026-07-28: tasks/cancel of a terminal task is acknowledged, the task unchanged",
  );
  const seen: string[] = [];
  for await (const s of handle) seen.push(s.status);
  assert.equal(seen, ["cancelled"]);
});

test("HTTP: a started task's input request is answered by the ordinary elicitation handler", async () => {
  const c = await http({
    handlers: { elicitation: () => ({ action: "accept" as const, content: { confirm: true } }) },
  });
  const handle = await c.tools.confirmDelete.start({ filename: "m.txt" });
  assert.type(handle.taskId, "string");
  assert.is(text(await handle.result()), "Deleted m.txt");
});

test("without tasks declared: start is refused locally with a clear error", async () => {
  const c = await http({ tasks: false });
  const e = await c.tools.slowCompute.start({ seconds: 0 }).catch((x: unknown) => x);
  assert.instance(e, Error);
  assert.match(String(e), /does not declare the io\.modelcontextprotocol\/tasks extension/);
});

test("stdio: the same handle over a child process", async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [mainJs, "--stdio"],
    closeTimeoutMs: 300,
    termTimeoutMs: 1000,
  });
  const c = await createEverythingClient(transport, options);
  try {
    const handle = await c.tools.slowCompute.start({ seconds: 0.3, label: "s" });
    assert.type(handle.taskId, "string");
    assert.is(text(await handle.result()), "Computed s after 0.3s");
    assert.is(text(await c.tools.slowCompute({ seconds: 0.2, label: "t" })), "Computed t after 0.2s");
    // A second stdio connection is a second server process: its (in-memory) store never saw the task.
    const other = new StdioClientTransport({
      command: process.execPath,
      args: [mainJs, "--stdio"],
      closeTimeoutMs: 300,
      termTimeoutMs: 1000,
    });
    const d = await createEverythingClient(other, options);
    try {
      const e = await d.tools.slowCompute.resume(handle.taskId!).catch((x: unknown) => x);
      assert.instance(e, McpError);
      assert.is((e as McpError).code, -32602);
    } finally {
      await d.close();
      await other.close();
    }
  } finally {
    await c.close();
    await transport.close();
  }
});

test("types: handles are typed by the tool; never-task tools have no start", () => {
  const types = async (c: EverythingClient) => {
    const h = await c.tools.slowCompute.start({ seconds: 1 });
    const r = await h.result();
    const blocks: unknown[] = r.content;
    void blocks;
    // @ts-expect-error "greet" is never a task (taskSupport forbidden): no start
    await c.tools.greet.start({ name: "x" });
    // @ts-expect-error the input is still checked
    await c.tools.slowCompute.start({ seconds: "1" });
    // @ts-expect-error resume needs a task id string
    await c.tools.slowCompute.resume(1);
  };
  assert.type(types, "function");
});

test.run();
