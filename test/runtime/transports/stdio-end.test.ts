// The end of a stdio input stops reading, not answering. Server: the requests already read are
// handled and answered (slow ones too), requests the server sent the client fail at once (no
// answer can come), then the output is flushed and the transport closes, at the latest after
// drainTimeoutMs. Client: every answer the server wrote before closing its stdout (or exiting)
// is delivered, then the calls still pending fail with a ConnectionClosedError saying why.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { StdioClientTransport, StdioServerTransport } from "@mcpgen/runtime/stdio";
import { ConnectionClosedError } from "@mcpgen/runtime";
import { createServerSession, type RequestContext } from "@mcpgen/runtime/internal";
import { clientBindings, createEverythingClient } from "../../../examples/everything/src/mcp/client.js";
import { bindings } from "../helpers/binding.js";
import { waitFor, within } from "./helpers.js";

const closingServer = fileURLToPath(new URL("../../../../test/fixtures/stdio-closing-server.mjs", import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A stdio server transport on in-memory streams, with what it writes parsed line by line. */
function pipes(options: { drainTimeoutMs?: number } = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new StdioServerTransport({ stdin, stdout, ...options });
  const written: any[] = [];
  let buffered = "";
  stdout.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) written.push(JSON.parse(line));
  });
  const write = (...messages: object[]) => stdin.end(messages.map((m) => JSON.stringify(m) + "\n").join(""));
  return { transport, written, write };
}

const initialize = (capabilities: object = {}) => [
  {
    jsonrpc: "2.0",
    id: "init",
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "batch", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
];
const call = (id: number, name: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {} },
});

test("server: requests read before EOF are answered, slow ones too; a request to the client fails at once; then it closes", async () => {
  const { transport, written, write } = pipes();
  const closedAfter: number[] = [];
  const session = await createServerSession({
    transport,
    bindings,
    serverInfo: { name: "s", version: "1" },
    capabilities: { tools: {} },
    handlers: {
      "tools/list": () => ({ tools: [] }),
      "tools/call": async (p: any, ctx: RequestContext) => {
        if (p.name === "slow") await sleep(150);
        // The client ended its input: this sampling request can never be answered.
        if (p.name === "ask") await ctx.sendRequest("sampling/createMessage", { messages: [], maxTokens: 1 });
        return { content: [{ type: "text", text: p.name }] };
      },
    },
    onerror: () => {},
  });
  session.onclose = () => closedAfter.push(written.length);
  write(...initialize({ sampling: {} }), call(1, "slow"), call(2, "quick"), call(3, "ask"), {
    jsonrpc: "2.0",
    id: 4,
    method: "tools/list",
  });
  await waitFor(() => closedAfter.length === 1, 5000, "close after EOF");
  const answers = new Map(written.filter((m) => !("method" in m)).map((m) => [m.id, m]));
  assert.equal([...answers.keys()].sort(), [1, 2, 3, 4, "init"].sort());
  assert.is(answers.get(1).result.content[0].text, "slow");
  assert.is(answers.get(2).result.content[0].text, "quick");
  assert.match(answers.get(3).error.message, /client ended its output; sampling\/createMessage gets no answer/);
  // The sampling request went out before the input ended was known; nothing is sent after close.
  assert.is(closedAfter[0], written.length, "closed only after the last answer was written");
  assert.ok(session.closed);
});

test("server: drainTimeoutMs bounds the wait; a handler that never finishes is aborted and the reason reported", async () => {
  const { transport, written, write } = pipes({ drainTimeoutMs: 100 });
  const errors: Error[] = [];
  let aborted = false;
  let closed = false;
  const session = await createServerSession({
    transport,
    bindings,
    serverInfo: { name: "s", version: "1" },
    capabilities: { tools: {} },
    handlers: {
      "tools/call": (p: any, ctx: RequestContext) =>
        p.name === "quick"
          ? { content: [] }
          : new Promise(() => ctx.signal.addEventListener("abort", () => (aborted = true))),
    },
    onerror: (e) => errors.push(e),
  });
  session.onclose = () => (closed = true);
  const started = Date.now();
  write(...initialize(), call(1, "hang"), call(2, "quick"));
  await waitFor(() => closed, 5000, "close after the drain timeout");
  assert.ok(Date.now() - started < 2000, "bounded");
  assert.ok(aborted, "the handler's signal was aborted");
  assert.equal(
    written
      .filter((m) => !("method" in m))
      .map((m) => m.id)
      .sort(),
    [2, "init"],
  );
  assert.ok(
    errors.some((e) => /unanswered after 100 ms \(drainTimeoutMs\)/.test(e.message)),
    errors.map((e) => e.message).join("\n"),
  );
});

test("drainTimeoutMs must be a number of ms setTimeout can take", () => {
  for (const bad of [-1, Number.NaN, Infinity, 2 ** 31]) {
    assert.throws(
      () => new StdioServerTransport({ stdin: new PassThrough(), stdout: new PassThrough(), drainTimeoutMs: bad }),
      /drainTimeoutMs/,
    );
  }
  new StdioServerTransport({ stdin: new PassThrough(), stdout: new PassThrough(), drainTimeoutMs: 0 });
});

/** The generated client, legacy era, on the scripted server; `n` calls at once. */
async function callsTo(n: number, mode: "close-stdout" | "exit") {
  const transport = new StdioClientTransport({ command: process.execPath, args: [closingServer, String(n), mode] });
  const client = await within(
    createEverythingClient(transport, {
      clientInfo: { name: "t", version: "1" },
      bindings: clientBindings.filter((b) => b.era === "legacy"),
      era: "legacy",
    }),
    5000,
    "connect",
  );
  const outcomes = await within(
    Promise.allSettled(Array.from({ length: n }, (_, i) => client.callTool("any", { i }))),
    10_000,
    "every call settled",
  );
  await within(client.close(), 5000, "close");
  return { outcomes, transport };
}

function check(outcomes: PromiseSettledResult<any>[]): void {
  const n = outcomes.length;
  outcomes.slice(0, -1).forEach((o, i) => {
    assert.is(o.status, "fulfilled", `call ${i}: ${o.status === "rejected" ? String(o.reason) : ""}`);
    assert.ok((o as PromiseFulfilledResult<any>).value.content[0].text.startsWith(`${i}:`));
  });
  const last = outcomes[n - 1]!;
  assert.is(last.status, "rejected");
  const reason = (last as PromiseRejectedResult).reason;
  assert.instance(reason, ConnectionClosedError);
  assert.match(reason.message, /the server ended its output; tools\/call gets no answer/);
}

test("client: the server closes its stdout after answering all calls but one: those answers arrive, the last call fails", async () => {
  const { outcomes, transport } = await callsTo(5, "close-stdout");
  check(outcomes);
  assert.equal(transport.exit, { code: 0, signal: null });
});

test("client: the server exits with answers still in the pipe (more than its buffer holds): every one is read first", async () => {
  const { outcomes, transport } = await callsTo(60, "exit");
  check(outcomes);
  assert.equal(transport.exit, { code: 0, signal: null });
});

test("client: a child that exits while a grandchild holds its stdout open closes the transport after drainTimeoutMs", async () => {
  // The grandchild inherits stdout and outlives its parent by far; it is told its pid to stop.
  const script = `const { spawn } = require("node:child_process");
    const g = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: ["ignore", "inherit", "ignore"] });
    process.stderr.write(g.pid + "\\n");
    g.unref();
    process.exit(0);`;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["-e", script],
    stderr: "pipe",
    drainTimeoutMs: 200,
  });
  let grandchild = "";
  transport.stderr!.setEncoding("utf8").on("data", (d: string) => (grandchild += d));
  let closed = false;
  transport.onclose = () => (closed = true);
  try {
    await within(transport.start(), 5000, "spawn");
    await waitFor(() => transport.exit !== undefined, 5000, "child exit");
    const exited = Date.now();
    await waitFor(() => closed, 5000, "close though stdout stays open");
    assert.ok(Date.now() - exited >= 150, "waited for stdout first");
  } finally {
    await transport.close();
    const pid = Number(grandchild.trim());
    if (pid > 0) process.kill(pid, "SIGKILL");
  }
});

test.run();
