// A server of 2026-07-28 alone on the bundlers' build (`-C deno`) serves each POST on the small
// PostTransport (post-transport.ts; the session transport is the legacy era's); Node's build serves
// the same server, stateless, on the session transport. The same requests get the same answers from
// both: statuses, headers, bodies (JSON and SSE) and what is reported, for 2026-07-28 requests
// (answered, refused, streamed, logged on the way), a notification, and the legacy traffic such a
// server answers statelessly (an initialize, batches, GET, DELETE).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { repoRoot } from "../../helpers.js";

const fixture = fileURLToPath(new URL("../modern/fixture.js", import.meta.url));
const binding = fileURLToPath(new URL("../helpers/binding.js", import.meta.url));

/** Prints one JSON line: each request's answer, and what the handler reported. */
const CHILD = `
import { createMcpServer } from "@mcpgen/runtime/abi/v8";
import { createFetchHandler } from "@mcpgen/runtime/fetch";
import { definition, handlers, META } from ${JSON.stringify(fixture)};
import { modern } from ${JSON.stringify(binding)};
const reported = [];
const server = createMcpServer(definition(["2026-07-28"]), handlers(), { bindings: [modern], onerror: () => {} });
const h = createFetchHandler(server, { sessions: false, onerror: (e) => void reported.push(e.message) });
const both = "application/json, text/event-stream";
const modernHeaders = (method, name, accept = both) => ({
  host: "127.0.0.1", "content-type": "application/json", accept,
  "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...(name ? { "mcp-name": name } : {}),
});
const legacyHeaders = (version) => ({
  host: "127.0.0.1", "content-type": "application/json", accept: both, ...(version ? { "mcp-protocol-version": version } : {}),
});
const call = (id, name, meta = {}) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {}, _meta: { ...META, ...meta } } });
const debug = { "io.modelcontextprotocol/logLevel": "debug" };
const init = (id) => ({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "x", version: "1" } } });
const cases = [
  ["echo", "POST", modernHeaders("tools/call", "echo"), call(1, "echo")],
  ["echo over SSE", "POST", modernHeaders("tools/call", "echo", "text/event-stream"), call(2, "echo")],
  ["log on the way", "POST", modernHeaders("tools/call", "log"), call(3, "log", debug)],
  ["log, JSON only", "POST", modernHeaders("tools/call", "log", "application/json"), call(4, "log", debug)],
  ["unknown method", "POST", modernHeaders("nope/nope"), { jsonrpc: "2.0", id: 5, method: "nope/nope", params: { _meta: META } }],
  ["header mismatch", "POST", modernHeaders("tools/list"), call(6, "echo")],
  ["notification", "POST", modernHeaders("notifications/cancelled"), { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, _meta: META } }],
  ["legacy initialize", "POST", legacyHeaders(), init(7)],
  ["legacy batch 2025-03-26", "POST", legacyHeaders("2025-03-26"), [init(8), { jsonrpc: "2.0", id: 9, method: "ping" }]],
  ["legacy batch 2025-06-18", "POST", legacyHeaders("2025-06-18"), [{ jsonrpc: "2.0", id: 10, method: "ping" }]],
  ["legacy batch of requests", "POST", legacyHeaders("2025-03-26"), [{ jsonrpc: "2.0", id: 12, method: "ping" }, { jsonrpc: "2.0", id: 13, method: "ping" }]],
  ["legacy batch over SSE", "POST", { ...legacyHeaders("2025-03-26"), accept: "text/event-stream" }, [{ jsonrpc: "2.0", id: 14, method: "ping" }]],
  ["legacy notification", "POST", legacyHeaders("2025-06-18"), { jsonrpc: "2.0", method: "notifications/initialized" }],
  ["legacy unsupported version", "POST", legacyHeaders("1999-01-01"), { jsonrpc: "2.0", id: 11, method: "ping" }],
  ["GET", "GET", { host: "127.0.0.1", accept: "text/event-stream" }],
  ["DELETE", "DELETE", { host: "127.0.0.1" }],
  ["PUT", "PUT", { host: "127.0.0.1" }],
];
const out = [];
for (const [name, method, headers, body] of cases) {
  const r = await h(new Request("http://127.0.0.1/mcp", { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) }));
  const kept = {};
  for (const k of ["content-type", "content-length", "allow", "mcp-session-id", "cache-control"]) {
    const v = r.headers.get(k);
    if (v !== null) kept[k] = v;
  }
  out.push({ name, status: r.status, headers: kept, body: await r.text() });
}
// Let the transports closing after their replies finish (and report) before the handler closes.
await new Promise((r) => setTimeout(r, 20));
await h.close();
await server.close();
console.log(JSON.stringify({ out, reported }));
`;

async function runChild(conditions: string[]): Promise<any> {
  // Below the repository, so @mcpgen/runtime resolves to this build.
  const dir = join(repoRoot, "tmp", `fetch-post-transport-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `child-${conditions.join("-") || "node"}.mjs`);
  writeFileSync(file, CHILD);
  try {
    const child = spawn(process.execPath, [...conditions.flatMap((c) => ["-C", c]), file], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((done) => child.on("exit", done));
    clearTimeout(timer);
    assert.is(code, 0, err);
    return JSON.parse(out.trim().split("\n").pop()!);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a server of 2026-07-28 alone answers the same on the POST transport (bundlers' build) as on the session transport (Node's)", async () => {
  const [small, full] = await Promise.all([runChild(["deno"]), runChild([])]);
  const byName = (r: any) => Object.fromEntries(r.out.map((o: any) => [o.name, o]));
  const s = byName(small);
  // The cases exercise what they are named for (else agreeing would prove little).
  assert.is(s["echo"].status, 200);
  assert.match(s["echo"].body, /region=-/);
  assert.is(s["echo over SSE"].headers["content-type"], "text/event-stream");
  assert.match(s["echo over SSE"].body, /^event: message\ndata: .*"id":2/m);
  assert.match(s["log on the way"].body, /notifications\/message[^]*"id":3/);
  assert.is(s["log, JSON only"].headers["content-type"], "application/json");
  assert.is(s["unknown method"].status, 404);
  assert.is(s["header mismatch"].status, 400);
  assert.is(s["notification"].status, 202);
  assert.is(s["legacy batch 2025-06-18"].status, 400);
  // No revision of this server takes a batch: the session's refusal, which no request id routes, is
  // the POST's reply (it went unanswered, the request hanging, before).
  assert.is(s["legacy batch of requests"].status, 400);
  assert.match(s["legacy batch of requests"].body, /"id":null,"error":\{"code":-32600/);
  assert.match(s["legacy batch over SSE"].body, /^event: message\ndata: .*"id":null,"error":\{"code":-32600/m);
  assert.is(s["GET"].status, 405);
  assert.is(s["PUT"].headers.allow, "POST");
  assert.equal(small.out, full.out);
  assert.equal([...small.reported].sort(), [...full.reported].sort());
});

test.run();
