// The "everything" example over stdio as a batch: every request is written, then stdin ends
// (`server < requests.jsonl`, `printf ... | server`). The end of input stops reading, not
// answering: each request gets its answer, slow ones and a 2026-07-28 listen included, and the
// process exits 0; a request slower than --drain-timeout does not keep the process alive.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers.js";
import { mainJs, waitExit } from "./helpers/everything-process.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "batch", version: "1" },
};

type Message = { id?: string | number; method?: string; result?: any; error?: { code: number; message: string } };

/** Legacy handshake, quick and slow calls, a page of tools, and 2026-07-28 requests on the same stream. */
const BATCH: object[] = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "batch", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "greet", arguments: { name: "pipe" } } },
  {
    jsonrpc: "2.0",
    id: 3,
    method: "tools/call",
    params: { name: "slow_compute", arguments: { seconds: 0.4, label: "late" } },
  },
  { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "test_tool_with_logging", arguments: {} } },
  { jsonrpc: "2.0", id: 5, method: "tools/list" },
  { jsonrpc: "2.0", id: 6, method: "ping" },
  { jsonrpc: "2.0", id: "m1", method: "tools/call", params: { name: "test_simple_text", arguments: {}, _meta: META } },
  // A listen has no end of its own: the input ending ends it, answered.
  {
    jsonrpc: "2.0",
    id: "L1",
    method: "subscriptions/listen",
    params: { notifications: { toolsListChanged: true }, _meta: META },
  },
];
const IDS = BATCH.flatMap((m) => ("id" in m ? [(m as { id: string | number }).id] : []));
const ndjson = (messages: object[]) => messages.map((m) => JSON.stringify(m) + "\n").join("");

function collect(child: ChildProcess): { out: () => Message[]; err: () => string } {
  let out = "";
  let err = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
  return {
    out: () =>
      out
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as Message),
    err: () => err,
  };
}

const answers = (messages: Message[]) =>
  new Map(messages.filter((m) => m.id !== undefined && m.method === undefined).map((m) => [m.id!, m]));

function checkBatch(messages: Message[], stderr: string): void {
  const byId = answers(messages);
  assert.equal([...byId.keys()].sort(), [...IDS].sort(), `every request answered; stderr: ${stderr}`);
  for (const [id, m] of byId) assert.is(m.error, undefined, `${String(id)}: ${JSON.stringify(m.error)}`);
  assert.is(byId.get(1)!.result.protocolVersion, "2025-06-18");
  assert.is(byId.get(2)!.result.content[0].text, "Hello, pipe!");
  assert.is(byId.get(3)!.result.content[0].text, "Computed late after 0.4s");
  assert.is(byId.get(4)!.result.content[0].text, "Tool with logging executed successfully");
  assert.ok(byId.get(5)!.result.tools.length > 10);
  assert.is(byId.get("m1")!.result.resultType, "complete");
  assert.is(byId.get("L1")!.result._meta["io.modelcontextprotocol/subscriptionId"], "L1");
  assert.ok(
    messages.some((m) => m.method === "notifications/subscriptions/acknowledged"),
    "the listen was acknowledged before it ended",
  );
}

test("piped stdin: N requests written, stdin closed -> N answers, exit 0", async () => {
  const child = spawn(process.execPath, [mainJs, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  const seen = collect(child);
  child.stdin!.end(ndjson(BATCH));
  const exit = await waitExit(child, 10_000);
  assert.equal(exit, { code: 0, signal: null }, seen.err());
  checkBatch(seen.out(), seen.err());
});

test("stdin from a file (`server < requests.jsonl`): the same answers, exit 0", async () => {
  const tmp = tempDir("mcpgen-drain-");
  try {
    const file = join(tmp.dir, "requests.jsonl");
    writeFileSync(file, ndjson(BATCH));
    const fd = openSync(file, "r");
    const child = spawn(process.execPath, [mainJs, "--stdio"], { stdio: [fd, "pipe", "pipe"] });
    closeSync(fd);
    const seen = collect(child);
    const exit = await waitExit(child, 10_000);
    assert.equal(exit, { code: 0, signal: null }, seen.err());
    checkBatch(seen.out(), seen.err());
  } finally {
    tmp.cleanup();
  }
});

test("--drain-timeout: a call slower than it does not keep the process alive; the others are answered", async () => {
  const child = spawn(process.execPath, [mainJs, "--stdio", "--drain-timeout", "300"], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const seen = collect(child);
  const started = Date.now();
  child.stdin!.end(
    ndjson([
      BATCH[0]!,
      BATCH[1]!,
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "greet", arguments: { name: "quick" } } },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 60 } } },
    ]),
  );
  const exit = await waitExit(child, 15_000);
  const took = Date.now() - started;
  assert.equal(exit, { code: 0, signal: null }, seen.err());
  assert.ok(took < 8_000, `exited ${took} ms after stdin closed`);
  const byId = answers(seen.out());
  assert.equal([...byId.keys()].sort(), [1, 2]);
  assert.match(seen.err(), /unanswered after 300 ms \(drainTimeoutMs\)/);
});

test("--drain-timeout is checked: not a number, or without --stdio, is exit 2", async () => {
  for (const args of [
    ["--stdio", "--drain-timeout", "soon"],
    ["--port", "0", "--drain-timeout", "100"],
  ]) {
    const child = spawn(process.execPath, [mainJs, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
    assert.is((await waitExit(child, 5000)).code, 2, args.join(" "));
    assert.match(err, /--drain-timeout/);
  }
});

test.run();
