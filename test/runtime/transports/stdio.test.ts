import { test } from "uvu";
import * as assert from "uvu/assert";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { StdioServerTransport, StdioClientTransport } from "@mcpgen/runtime/stdio";
import type { JSONRPCMessage } from "@mcpgen/runtime";
import { waitFor, within } from "./helpers.js";

const fixture = fileURLToPath(new URL("../../../../test/fixtures/stdio-echo-server.mjs", import.meta.url));
const live: StdioClientTransport[] = [];

function spawnEcho(extra: string[] = [], o: Partial<ConstructorParameters<typeof StdioClientTransport>[0]> = {}) {
  const t = new StdioClientTransport({ command: process.execPath, args: [fixture, ...extra], stderr: "pipe", ...o });
  live.push(t);
  const received: JSONRPCMessage[] = [];
  t.onmessage = (m) => received.push(...(Array.isArray(m) ? m : [m]));
  return { t, received };
}

function stderrText(t: StdioClientTransport): { text: string } {
  const out = { text: "" };
  t.stderr?.setEncoding("utf8");
  t.stderr?.on("data", (c: string) => (out.text += c));
  return out;
}

test.after(async () => {
  for (const t of live) {
    await t.close();
    if (t.pid !== undefined && t.exit === undefined) process.kill(t.pid, "SIGKILL");
  }
});

test("stdio server (injected streams): replies, bad lines answered with -32700, stream survives", async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  const t = new StdioServerTransport({ stdin: input, stdout: output, maxMessageBytes: 50 });
  const got: unknown[] = [];
  const errors: Error[] = [];
  t.onmessage = (m) => got.push(m);
  t.onerror = (e) => errors.push(e);
  let closed = 0;
  t.onclose = () => closed++;
  await t.start();
  let written = "";
  output.setEncoding("utf8");
  output.on("data", (c: string) => (written += c));
  input.write('{"jsonrpc":"2.0","id":1,"method":"a"}\ngarbage\n');
  input.write(`{"x":"${"z".repeat(80)}"}\n{"jsonrpc":"2.0","method":"n"}\n`);
  await t.send({ jsonrpc: "2.0", id: 1, result: { text: "multi\nline" } });
  await waitFor(() => written.split("\n").length >= 4, 2000, "three lines out");
  const lines = written
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as { id?: unknown; error?: { code: number } });
  assert.is(got.length, 2);
  assert.is(errors.length, 2);
  assert.equal(
    lines.map((l) => l.error?.code ?? "ok"),
    [-32700, -32700, "ok"],
  );
  assert.is(lines[0]!.id, null);
  input.end();
  await waitFor(() => closed === 1, 2000, "close on EOF");
  await t.close();
  assert.is(closed, 1);
  await assert.not.throws(() => t.send({ jsonrpc: "2.0", method: "late" }).catch(() => {}));
});

test("stdio client: spawn, echo, stderr piped, graceful shutdown by closing stdin", async () => {
  const { t, received } = spawnEcho();
  const err = stderrText(t);
  let closed = 0;
  t.onclose = () => closed++;
  await within(t.start(), 5000, "spawn");
  await t.send({ jsonrpc: "2.0", id: 1, method: "echo", params: { s: "日本 🌍" } });
  await t.send({ jsonrpc: "2.0", id: 2, method: "stderr", params: { text: "to-stderr" } });
  await waitFor(() => received.length === 2, 5000, "two replies");
  assert.equal(received[0], { jsonrpc: "2.0", id: 1, result: { echo: { s: "日本 🌍" } } });
  await waitFor(() => err.text.includes("to-stderr"), 5000, "stderr text");
  await within(t.close(), 5000, "close");
  assert.is(closed, 1);
  assert.equal(t.exit, { code: 0, signal: null });
});

test("stdio client: server answers garbage from us with -32700, an oversized request by its id, and keeps going", async () => {
  const { t, received } = spawnEcho(["--max=100"]);
  await within(t.start(), 5000, "spawn");
  // Bypass send(): write raw garbage and an oversized line straight into the child's stdin.
  const stdin = (t as unknown as { output: NodeJS.WritableStream }).output;
  stdin.write("{oops\n");
  stdin.write(`{"jsonrpc":"2.0","id":9,"method":"echo","params":{"s":"${"x".repeat(200)}"}}\n`);
  await t.send({ jsonrpc: "2.0", id: 3, method: "echo" });
  await waitFor(() => received.length === 3, 5000, "three messages");
  // The oversized line's id was readable: it is failed by that id at once (-32600), not left to time out.
  assert.equal(
    received.map((m) => ("error" in m ? m.error.code : "ok")),
    [-32700, -32600, "ok"],
  );
  assert.equal(
    received.map((m) => (m as { id?: unknown }).id),
    [null, 9, 3],
  );
  await within(t.close(), 5000, "close");
});

test("stdio client: a 1 MiB message crosses the pipe (many reads) intact, both ways", async () => {
  const { t, received } = spawnEcho();
  await within(t.start(), 5000, "spawn");
  const big = "é".repeat(512 * 1024);
  await t.send({ jsonrpc: "2.0", id: 1, method: "echo", params: { big } });
  await waitFor(() => received.length === 1, 10000, "big echo");
  assert.ok((received[0] as unknown as { result: { echo: { big: string } } }).result.echo.big === big);
  await within(t.close(), 5000, "close");
});

test("stdio client: a child that ignores SIGTERM is killed with SIGKILL", async () => {
  const { t } = spawnEcho(["--ignore-sigterm", "--ignore-eof"], { closeTimeoutMs: 200, termTimeoutMs: 200 });
  const err = stderrText(t);
  await within(t.start(), 5000, "spawn");
  await waitFor(() => err.text.includes("ready"), 5000, "child ready");
  await within(t.close(), 5000, "close with escalation");
  assert.equal(t.exit, { code: null, signal: "SIGKILL" });
  assert.ok(err.text.includes("ignoring SIGTERM"), "SIGTERM was tried first");
});

test("stdio client: a child that exits by itself closes the transport", async () => {
  const { t } = spawnEcho();
  let closed = 0;
  t.onclose = () => closed++;
  await within(t.start(), 5000, "spawn");
  await t.send({ jsonrpc: "2.0", id: 1, method: "exit" });
  await waitFor(() => closed === 1, 5000, "onclose after child exit");
  await waitFor(() => t.exit !== undefined, 5000, "exit recorded");
  assert.is(t.exit!.code, 3);
  await t.close();
  assert.is(closed, 1);
  try {
    await t.send({ jsonrpc: "2.0", id: 2, method: "echo" });
    assert.unreachable("send after close must fail");
  } catch (e) {
    assert.match((e as Error).message, /closed/);
  }
});

test("stdio client: a command that does not exist rejects start()", async () => {
  const t = new StdioClientTransport({ command: "/nonexistent/mcpgen-no-such-binary" });
  let closed = 0;
  t.onclose = () => closed++;
  try {
    await within(t.start(), 5000, "spawn failure");
    assert.unreachable("start must reject");
  } catch (e) {
    assert.match((e as Error).message, /cannot start/);
  }
  assert.is(closed, 1);
});

test.run();
