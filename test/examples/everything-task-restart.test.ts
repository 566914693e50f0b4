// The durable task store across a crash: the "everything" server runs as a real process over
// Streamable HTTP (2026-07-28 tasks extension) with `--task-store <file>`, a tool call becomes a
// task, the server is SIGKILLed before the client ever asks tasks/get, and a new server on the
// same file answers tasks/get: the finished task with its result, the one that was still running
// as failed (its work died with the process).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpError } from "@mcpgen/runtime";
import { connectHttp } from "@mcpgen/runtime/http";
import { createEverythingClient } from "../../examples/everything/src/mcp/client.js";
import { startEverything, waitExit, type EverythingProcess } from "./helpers/everything-process.js";

const EXT = "io.modelcontextprotocol/tasks";
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } },
};
const dir = mkdtempSync(join(tmpdir(), "mcpgen-task-restart-"));
const file = join(dir, "tasks.db");
const running: EverythingProcess[] = [];
let nextId = 1;

async function start(port = 0): Promise<EverythingProcess> {
  const p = await startEverything(["--port", String(port), "--task-store", file]);
  running.push(p);
  return p;
}

function post(
  server: EverythingProcess,
  method: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<Response> {
  const name = (params.name ?? params.taskId) as string | undefined;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  };
  if (name !== undefined) headers["mcp-name"] = name;
  return fetch(server.url, {
    method: "POST",
    signal: signal ?? AbortSignal.timeout(10_000),
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: META } }),
  });
}

async function rpc(server: EverythingProcess, method: string, params: Record<string, unknown>): Promise<any> {
  return (await (await post(server, method, params)).json()) as any;
}

/** Read the listen stream until a notifications/tasks with a terminal status arrives (bounded: 15 s). */
async function terminalNote(res: Response, ctrl: AbortController): Promise<any> {
  const timer = setTimeout(() => ctrl.abort(), 15_000);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`listen stream ended: ${text}`);
      text += decoder.decode(value, { stream: true });
      const notes = text
        .split("\n")
        .filter((l) => l.startsWith("data: "))
        .map((l) => JSON.parse(l.slice(6)))
        .filter((e) => e.method === "notifications/tasks");
      const end = notes.find((e) => ["completed", "failed", "cancelled"].includes(e.params.status));
      if (end !== undefined) return end;
    }
  } finally {
    clearTimeout(timer);
    ctrl.abort();
  }
}

test.after(async () => {
  for (const p of running) await waitExit(p.child, 0).catch(() => {});
  for (const p of running) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

test("SIGKILL between tools/call and tasks/get: a restarted server on the same file answers tasks/get", async () => {
  const first = await start();
  const port = Number(first.url.port);
  const quick = (await rpc(first, "tools/call", { name: "slow_compute", arguments: { seconds: 2, label: "durable" } }))
    .result;
  // Learn that the quick task finished by listening, not by tasks/get: the client has not asked yet.
  const ctrl = new AbortController();
  const listen = await post(first, "subscriptions/listen", { notifications: { taskIds: [quick.taskId] } }, ctrl.signal);
  const slow = (await rpc(first, "tools/call", { name: "slow_compute", arguments: { seconds: 60 } })).result;
  assert.equal([quick.resultType, slow.resultType], ["task", "task"]);
  const note = await terminalNote(listen, ctrl);
  assert.equal([note.params.taskId, note.params.status], [quick.taskId, "completed"]);

  first.child.kill("SIGKILL");
  assert.equal(await waitExit(first.child, 5000), { code: null, signal: "SIGKILL" });

  const second = await start(port);
  assert.match(second.stderr(), /1 task\(s\) in .* were running when the last server stopped; they are marked failed/);
  const done = (await rpc(second, "tasks/get", { taskId: quick.taskId })).result;
  assert.equal(
    [done.status, done.result.content],
    ["completed", [{ type: "text", text: "Computed durable after 2s" }]],
  );
  const lost = (await rpc(second, "tasks/get", { taskId: slow.taskId })).result;
  assert.is(lost.status, "failed");
  assert.equal(lost.error, {
    code: -32603,
    message: "Internal error: the server restarted while this task ran; its work was lost",
  });
  assert.is((await rpc(second, "tasks/cancel", { taskId: slow.taskId })).result.resultType, "complete");
  assert.is(
    (await rpc(second, "tasks/get", { taskId: slow.taskId })).result.status,
    "failed",
    "a failed task never changes again",
  );
  assert.is((await rpc(second, "tasks/get", { taskId: "no-such-task" })).error.code, -32602);

  // The generated client reattaches by id after the restart: typed result, and the lost task's error.
  const client = await createEverythingClient(connectHttp(second.url), {
    clientInfo: { name: "restart", version: "1" },
    tasks: true,
    pollIntervalMs: { min: 20, max: 100 },
  });
  try {
    assert.is(client.era, "modern");
    const again = await client.tools.slowCompute.resume(quick.taskId);
    assert.equal((await again.result()).content, [{ type: "text", text: "Computed durable after 2s" }]);
    const e = await (await client.tools.slowCompute.resume(slow.taskId)).result().catch((x: unknown) => x);
    assert.instance(e, McpError);
    assert.is((e as McpError).code, -32603);
  } finally {
    await client.close();
  }

  // While this server holds the file, a second one on it refuses to start, naming the file.
  await startEverything(["--port", "0", "--task-store", file]).then(
    (p) => {
      running.push(p);
      assert.unreachable("two servers on one task file");
    },
    (e: Error) => assert.match(e.message, /cannot open task database .*tasks\.db: .*another process holds it/),
  );
  assert.equal(await second.stop(), { code: 0, signal: null }, `stderr: ${second.stderr()}`);
});

test("a task file that is not a database stops the server at start with a clear error", async () => {
  const bad = join(dir, "bad.db");
  const { writeFileSync } = await import("node:fs");
  writeFileSync(bad, "not a database ".repeat(100));
  await startEverything(["--port", "0", "--task-store", bad]).then(
    (p) => {
      running.push(p);
      assert.unreachable("a corrupt file must stop the server");
    },
    (e: Error) =>
      assert.match(
        e.message,
        /exited early \(1\).*cannot open task database .*bad\.db: .*not an intact SQLite database/s,
      ),
  );
});

test.run();
