// The durable task store across a crash in the 2025-11-25 era, through the generated client: the
// "everything" server runs over stdio with `--task-store <file>`, two tools/call become tasks, the
// server is SIGKILLed before the client ever asks tasks/result, and a new server process on the
// same file lets the new client `.resume(taskId)` them: the finished task gives its typed result,
// the one that was still running is failed (its work died with the process). A stdio server's
// tasks belong to "the stdio client" (ConnectOptions.taskOwner), not to one connection, which is
// what makes them reachable after the restart. Over Streamable HTTP without authorization a task
// belongs to its session, and sessions do not survive a restart: the id is then -32602.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpError } from "@mcpgen/runtime";
import { connectHttp } from "@mcpgen/runtime/http";
import { StdioClientTransport } from "@mcpgen/runtime/stdio";
import { createEverythingClient, type EverythingClient } from "../../examples/everything/src/mcp/client.js";
import { mainJs, startEverything, waitExit, type EverythingProcess } from "./helpers/everything-process.js";

const dir = mkdtempSync(join(tmpdir(), "mcpgen-task-restart-legacy-"));
const options = {
  clientInfo: { name: "restart-legacy", version: "1.0.0" },
  era: "legacy" as const,
  tasks: true,
  pollIntervalMs: { min: 20, max: 100 },
};
const transports: StdioClientTransport[] = [];
const servers: EverythingProcess[] = [];
const text = (r: { content: { type: string }[] }) =>
  r.content.map((b) => (b.type === "text" ? (b as unknown as { text: string }).text : `[${b.type}]`)).join("\n");

async function stdioClient(
  file: string,
): Promise<{ client: EverythingClient; transport: StdioClientTransport; stderr: () => string }> {
  let stderr = "";
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [mainJs, "--stdio", "--task-store", file],
    stderr: "pipe",
    closeTimeoutMs: 300,
    termTimeoutMs: 1000,
  });
  transports.push(transport);
  transport.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const client = await createEverythingClient(transport, options);
  return { client, transport, stderr: () => stderr };
}

test.after(async () => {
  for (const t of transports) await t.close().catch(() => {});
  for (const p of servers) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

test("stdio: SIGKILL between tools/call and tasks/result; the restarted server's client resumes both tasks", async () => {
  const file = join(dir, "stdio.db");
  const first = await stdioClient(file);
  const quick = await first.client.tools.slowCompute.start({ seconds: 0.3, label: "durable" });
  const slow = await first.client.tools.slowCompute.start({ seconds: 60 });
  // Learn that the quick task finished from its statuses (tasks/get), never tasks/result.
  const seen: string[] = [];
  for await (const s of quick) seen.push(s.status);
  assert.is(seen[seen.length - 1], "completed");

  const pid = first.transport.pid!;
  process.kill(pid, "SIGKILL");
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  assert.not.ok(isAlive(pid), "the first server is gone");
  await first.client.close().catch(() => {});

  const second = await stdioClient(file);
  const done = await second.client.tools.slowCompute.resume(quick.taskId!);
  assert.is((await done.status()).status, "completed");
  assert.is(text(await done.result()), "Computed durable after 0.3s");
  const lost = await second.client.tools.slowCompute.resume(slow.taskId!);
  const status = await lost.status();
  assert.is(status.status, "failed");
  const e = await lost.result().catch((x: unknown) => x);
  assert.instance(e, McpError);
  assert.equal(
    [(e as McpError).code, (e as McpError).message],
    [-32603, "Internal error: the server restarted while this task ran; its work was lost"],
  );
  const again = await lost.cancel().catch((x: unknown) => x);
  assert.is((again as McpError).code, -32602, "a failed task cannot be cancelled");
  assert.is((await lost.status()).status, "failed", "and never changes again");
  assert.is(
    ((await second.client.tools.slowCompute.resume("no-such-task").catch((x: unknown) => x)) as McpError).code,
    -32602,
  );
  assert.match(second.stderr(), /1 task\(s\) in .*stdio\.db were running when the last server stopped/);
  await second.client.close();
});

test("HTTP: a legacy session's task is bound to the session; after a restart its id is -32602", async () => {
  const file = join(dir, "http.db");
  const first = await startEverything(["--port", "0", "--task-store", file]);
  servers.push(first);
  const a = await createEverythingClient(connectHttp(first.url), options);
  const handle = await a.tools.slowCompute.start({ seconds: 0.2, label: "h" });
  for await (const s of handle) if (s.status === "completed") break;
  first.child.kill("SIGKILL");
  assert.equal(await waitExit(first.child, 5000), { code: null, signal: "SIGKILL" });
  await a.close().catch(() => {});

  const second = await startEverything(["--port", String(first.url.port), "--task-store", file]);
  servers.push(second);
  const b = await createEverythingClient(connectHttp(second.url), options);
  const e = await b.tools.slowCompute.resume(handle.taskId!).catch((x: unknown) => x);
  assert.instance(e, McpError);
  assert.is((e as McpError).code, -32602, "another session's task: never reachable without authorization");
  await b.close();
  assert.equal(await second.stop(), { code: 0, signal: null }, `stderr: ${second.stderr()}`);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test.run();
