// The session's one deadline timer: each request still fails at its own deadline while others
// come and go, cancellation takes a request off it, and it holds the event loop only while a
// request is pending (going idle releases it once the current burst of calls is over).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { RequestTimeoutError, createMemoryTransportPair } from "@mcpgen/runtime";
import { Session } from "@mcpgen/runtime/internal";
import { latest } from "./helpers/binding.js";
import { rejection } from "./helpers/peer.js";

function pair(timeout?: number) {
  const [a, b] = createMemoryTransportPair();
  const server = new Session({ transport: b, side: "server", binding: latest });
  const client = new Session({ transport: a, side: "client", binding: latest, timeout });
  void a.start();
  void b.start();
  return { server, client };
}

test("a request times out at its own deadline while many others are answered on the same timer", async () => {
  const { server, client } = pair();
  server.setRequestHandler("tools/call", (p: any) => (p.name === "slow" ? new Promise(() => {}) : { content: [] }));
  const start = Date.now();
  const slow = rejection(client.request("tools/call", { name: "slow" }, { timeout: 80 }));
  for (let i = 0; i < 2000; i++) await client.request("tools/call", { name: "fast" }, { timeout: 10_000 });
  const e = await slow;
  const waited = Date.now() - start;
  assert.instance(e, RequestTimeoutError);
  assert.ok(waited >= 75, `timed out after ${waited} ms, not before its 80 ms`);
  assert.ok(waited < 2000, `timed out after ${waited} ms`);
  assert.is(client.pendingCount, 0);
  await client.close();
});

test("cancelling the request with the earliest deadline leaves the later one to time out at its own", async () => {
  const { server, client } = pair();
  server.setRequestHandler("tools/call", () => new Promise(() => {}));
  const early = new AbortController();
  const start = Date.now();
  const first = rejection(client.request("tools/call", { name: "a" }, { timeout: 30, signal: early.signal }));
  const second = rejection(client.request("tools/call", { name: "b" }, { timeout: 120 }));
  early.abort(new Error("changed my mind"));
  assert.is((await first).message, "changed my mind");
  assert.is(client.pendingCount, 1);
  const e = await second;
  assert.instance(e, RequestTimeoutError);
  assert.ok(Date.now() - start >= 115, "the second request kept its own deadline");
  assert.is(client.pendingCount, 0);
  await client.close();
});

test("a request answered just before its deadline is not expired by the shared timer", async () => {
  const { server, client } = pair();
  let release!: () => void;
  server.setRequestHandler("tools/call", (p: any) =>
    p.name === "held" ? new Promise((r) => (release = () => r({ content: [] }))) : { content: [] },
  );
  const held = client.request("tools/call", { name: "held" }, { timeout: 60 });
  await new Promise((r) => setTimeout(r, 20));
  release();
  assert.equal(await held, { content: [] });
  // The timer still fires at 60 ms (armed for that deadline) and must find nothing to expire.
  await new Promise((r) => setTimeout(r, 80));
  assert.is(client.pendingCount, 0);
  assert.equal(await client.request("tools/call", { name: "after" }, { timeout: 60 }), { content: [] });
  await client.close();
});

/** Runs `code` (an ES module) in a child Node; resolves with its stdout and how long it lived. */
function child(code: string): Promise<{ out: string; ms: number }> {
  const cwd = fileURLToPath(new URL("../../..", import.meta.url));
  const start = Date.now();
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--input-type=module", "-e", code],
      { cwd, timeout: 20_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve({ out: stdout.trim(), ms: Date.now() - start });
      },
    );
  });
}

const PROLOGUE = `
import { createMemoryTransportPair } from "@mcpgen/runtime";
import { Session } from "@mcpgen/runtime/internal";
const { latest } = await import(${JSON.stringify(new URL("./helpers/binding.js", import.meta.url).href)});
const [a, b] = createMemoryTransportPair();
const server = new Session({ transport: b, side: "server", binding: latest });
const client = new Session({ transport: a, side: "client", binding: latest });
await a.start();
await b.start();
`;

test("once nothing is pending the timer does not hold the process (60 s default timeout, connection left open)", async () => {
  const { out, ms } = await child(`${PROLOGUE}
server.setRequestHandler("tools/call", () => ({ content: [] }));
for (let i = 0; i < 1000; i++) await client.request("tools/call", { name: "t" });
console.log("done", client.pendingCount);
`);
  assert.is(out, "done 0");
  assert.ok(ms < 15_000, `the process lived ${ms} ms`);
});

test("while a request is pending the timer holds the process until the request times out", async () => {
  const { out } = await child(`${PROLOGUE}
server.setRequestHandler("tools/call", (p) => (p.name === "never" ? new Promise(() => {}) : { content: [] }));
for (let i = 0; i < 100; i++) await client.request("tools/call", { name: "t" });
const start = Date.now();
client.request("tools/call", { name: "never" }, { timeout: 300 }).catch((e) => console.log(e.name, Date.now() - start >= 290));
`);
  assert.is(out, "RequestTimeoutError true");
});

test.run();
