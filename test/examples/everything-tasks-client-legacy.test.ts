// The generated EverythingClient as a task requestor in the 2025-11-25 era (core tasks), against the
// everything example as a real process over Streamable HTTP and over stdio: the plain call of a
// `required` tool waits transparently; `.start` gives a typed handle (status, status changes,
// result, cancel); a task's elicitation is answered by the client's ordinary handler through
// tasks/result; status notifications end the client's waits early; progress reaches the caller;
// `.resume` from another connection is -32602 (tasks belong to the connection that made them).
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
const asked: string[] = [];
const options = {
  clientInfo: { name: "tasks-client-legacy", version: "1.0.0" },
  era: "legacy" as const,
  tasks: true,
  pollIntervalMs: { min: 20, max: 100 },
  handlers: {
    // confirm_delete asks "Delete <file>?", the others a name.
    elicitation: (p: { message: string; requestedSchema?: { properties?: Record<string, unknown> } }) => {
      asked.push(p.message);
      const content: Record<string, string | boolean> = p.message.startsWith("Delete ")
        ? { confirm: true }
        : { name: "Ada" };
      return { action: "accept" as const, content };
    },
  },
};

async function http(extra: object = {}): Promise<EverythingClient> {
  const c = await createEverythingClient(connectHttp(server.url), { ...options, ...extra });
  opened.push(c);
  return c;
}

const text = (r: { content: { type: string }[] }) =>
  r.content.map((b) => (b.type === "text" ? (b as unknown as { text: string }).text : `[${b.type}]`)).join("\n");
const TERMINAL = ["completed", "failed", "cancelled"];

test.before(async () => {
  server = await startEverything();
});

test.after(async () => {
  for (const c of opened) await c.close();
  assert.equal(await server.stop(), { code: 0, signal: null }, `stderr: ${server.stderr()}`);
});

test("HTTP 2025-11-25: the plain call of a required tool waits for its task; errors keep their shape", async () => {
  const c = await http();
  assert.is(c.era, "legacy");
  assert.is(c.protocolVersion, "2025-11-25");
  const failed = await c.tools.failingJob();
  assert.is(failed.isError, true, "a tool error is the call's isError result");
  const greeted = await c.tools.testToolWithTask();
  assert.match(text(greeted), /Ada/);
  const err = await c.tools.protocolErrorJob
    .start()
    .then((h) => h.result())
    .catch((e: unknown) => e);
  assert.instance(err, McpError);
  assert.is((err as McpError).code, -32603);
});

test("HTTP 2025-11-25: start -> handle: status(), status changes in order, typed result", async () => {
  const c = await http();
  const handle = await c.tools.slowCompute.start({ seconds: 0.4, label: "h" });
  assert.type(handle.taskId, "string");
  const now = await handle.status();
  assert.is(now.taskId, handle.taskId);
  assert.ok(["working", "completed"].includes(now.status), now.status);
  const seen: TaskInfo[] = [];
  for await (const s of handle) seen.push(s);
  assert.is(seen[0]!.status, "working");
  assert.is(seen[seen.length - 1]!.status, "completed");
  for (const s of seen.slice(0, -1)) assert.not.ok(TERMINAL.includes(s.status), "only the last status is terminal");
  const r = await handle.result();
  assert.is(r.isError, false);
  assert.is(text(r), "Computed h after 0.4s");
  assert.is((await handle.status()).status, "completed");
});

test("HTTP 2025-11-25: cancel ends the task cancelled for good; result() rejects with TaskCancelledError", async () => {
  const c = await http();
  const handle = await c.tools.slowCompute.start({ seconds: 60 });
  const after = await handle.cancel();
  assert.equal([after.taskId, after.status], [handle.taskId, "cancelled"]);
  const e = await handle.result().catch((x: unknown) => x);
  assert.instance(e, TaskCancelledError);
  assert.is((e as TaskCancelledError).taskId, handle.taskId);
  await new Promise((r) => setTimeout(r, 200));
  assert.is((await handle.status()).status, "cancelled", "a cancelled task never changes again");
  const again = await handle.cancel().catch((x: unknown) => x);
  assert.instance(again, McpError);
  assert.is((again as McpError).code, -32602, "cancelling a terminal task");
});

test("HTTP 2025-11-25: a task's elicitation is answered by the ordinary handler through tasks/result", async () => {
  const c = await http();
  asked.length = 0;
  const handle = await c.tools.confirmDelete.start({ filename: "e2e.txt" });
  const r = await handle.result();
  assert.is(text(r), "Deleted e2e.txt");
  assert.is(asked.length, 1, "the handler ran once");
  assert.is((await handle.status()).status, "completed");
});

test("HTTP 2025-11-25: status notifications end the wait (polling alone would take 5 s)", async () => {
  const c = await http({ pollIntervalMs: { min: 5000, max: 5000 } });
  const t0 = Date.now();
  assert.is((await c.tools.failingJob()).isError, true, "the plain call of a required tool (about 1 s)");
  const handle = await c.tools.slowCompute.start({ seconds: 0.3, label: "m" });
  const seen: string[] = [];
  for await (const s of handle) seen.push(s.status);
  assert.is(seen[seen.length - 1], "completed");
  assert.ok(Date.now() - t0 < 4000, `took ${Date.now() - t0} ms`);
});

test("HTTP 2025-11-25: progress of a task reaches the caller's onprogress after CreateTaskResult", async () => {
  const c = await http();
  const progress: { progress: number; total?: number; message?: string }[] = [];
  const handle = await c.tools.slowCompute.start({ seconds: 0.3, label: "p" }, { onprogress: (p) => progress.push(p) });
  assert.is(text(await handle.result()), "Computed p after 0.3s");
  assert.ok(progress.length >= 1, "progress arrived");
  assert.equal(
    [progress[0]!.progress, progress[0]!.total, progress[0]!.message],
    [1, 2, "halfway"],
    "sent after the CreateTaskResult answered the call",
  );
});

test("HTTP 2025-11-25: resume on the same connection works; another session's resume is -32602", async () => {
  const a = await http();
  const handle = await a.tools.slowCompute.start({ seconds: 0.3, label: "r" });
  const same = await a.tools.slowCompute.resume(handle.taskId!);
  assert.is(text(await same.result()), "Computed r after 0.3s");
  const b = await http();
  const foreign = await b.tools.slowCompute.resume(handle.taskId!).catch((e: unknown) => e);
  assert.instance(foreign, McpError);
  assert.is((foreign as McpError).code, -32602, "another connection's task is unknown to this one");
  const unknown = await b.tools.slowCompute.resume("no-such-task").catch((e: unknown) => e);
  assert.is((unknown as McpError).code, -32602);
});

test("HTTP 2025-11-25: two questions at once both go through the handler; ttl is the caller's", async () => {
  const c = await http();
  const handle = await c.tools.multiInput.start(undefined, { task: { ttlMs: 20_000 } });
  assert.is((await handle.status()).ttlMs, 20_000);
  assert.is(text(await handle.result()), "First: accept Ada; second: accept Ada");
});

test("HTTP 2025-11-25: aborting a transparent call cancels the task on the server", async () => {
  const c = await http();
  const ctrl = new AbortController();
  const handle = await c.tools.slowCompute.start({ seconds: 60 });
  setTimeout(() => ctrl.abort(new Error("gave up")), 50);
  await handle.result({ signal: ctrl.signal }).then(
    () => assert.unreachable("aborted"),
    (e: unknown) => assert.match(String(e), /gave up/),
  );
  assert.is((await handle.status()).status, "cancelled", "the abort sent tasks/cancel");
});

test("without tasks declared: a required tool cannot be called; start is refused locally", async () => {
  const c = await http({ tasks: false });
  const e = await c.tools.slowCompute.start({ seconds: 0 }).catch((x: unknown) => x);
  assert.instance(e, Error);
  assert.match(String(e), /this client does not declare tasks/);
  const r = await c.tools.failingJob().catch((x: unknown) => x);
  assert.instance(r, McpError);
  assert.is((r as McpError).code, -32601);
});

test("stdio 2025-11-25: plain call, handle, cancel, elicitation; a second process does not know the task", async () => {
  const spawnClient = async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [mainJs, "--stdio"],
      closeTimeoutMs: 300,
      termTimeoutMs: 1000,
    });
    return {
      transport,
      client: await createEverythingClient(transport, { ...options, pollIntervalMs: { min: 5000, max: 5000 } }),
    };
  };
  const one = await spawnClient();
  let two: Awaited<ReturnType<typeof spawnClient>> | undefined;
  try {
    const c = one.client;
    assert.is(c.era, "legacy");
    const t0 = Date.now();
    assert.is((await c.tools.failingJob()).isError, true);
    assert.ok(Date.now() - t0 < 4000, "status notifications end the wait over stdio too (polls are 5 s apart)");
    const handle = await c.tools.slowCompute.start({ seconds: 0.3, label: "s" });
    assert.type(handle.taskId, "string");
    const seen: string[] = [];
    for await (const s of handle) seen.push(s.status);
    assert.equal([seen[0], seen[seen.length - 1]], ["working", "completed"]);
    const t1 = Date.now();
    assert.is(text(await handle.result()), "Computed s after 0.3s");
    const doomed = await c.tools.slowCompute.start({ seconds: 60 });
    assert.is((await doomed.cancel()).status, "cancelled");
    assert.instance(await doomed.result().catch((x: unknown) => x), TaskCancelledError);
    assert.ok(Date.now() - t1 < 4000, "result() of an ended task asks for it at once (no poll interval first)");
    assert.is((await doomed.status()).status, "cancelled");
    assert.is(text(await (await c.tools.confirmDelete.start({ filename: "s.txt" })).result()), "Deleted s.txt");
    // A second stdio connection is a second server process: its store never saw the task.
    two = await spawnClient();
    const e = await two.client.tools.slowCompute.resume(handle.taskId!).catch((x: unknown) => x);
    assert.instance(e, McpError);
    assert.is((e as McpError).code, -32602);
  } finally {
    for (const x of [one, two]) {
      if (x === undefined) continue;
      await x.client.close();
      await x.transport.close();
    }
  }
});

test.run();
