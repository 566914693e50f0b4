// The fetch handler takes the legacy era's side of HTTP (sessions, their event store, HTTP+SSE) from
// the server's legacy era on the hosts bundlers serve (dist/esm/ under the bun, deno, workerd, ...
// conditions), and Node's build has its own. Here a child Node runs the bundlers' build (`-C deno`):
// a server with the legacy era opens legacy sessions; one of 2026-07-28 alone is stateless for
// legacy traffic, answers a legacy `initialize` as before and refuses `legacySse`; and on Node's own
// build the latter still opens sessions as it always did.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { repoRoot } from "../../helpers.js";

const fixture = fileURLToPath(new URL("../modern/fixture.js", import.meta.url));
const binding = fileURLToPath(new URL("../helpers/binding.js", import.meta.url));

/** Prints one JSON line: what each server answered. */
const CHILD = `
import { createMcpServer, legacyEra } from "@mcpgen/runtime/abi/v8";
import { createFetchHandler } from "@mcpgen/runtime/fetch";
import { definition, handlers } from ${JSON.stringify(fixture)};
import { modern, latest } from ${JSON.stringify(binding)};
const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } };
const headers = { host: "127.0.0.1", "content-type": "application/json", accept: "application/json, text/event-stream" };
async function run(server) {
  const h = createFetchHandler(server, { sessions: true, onerror: () => {} });
  const post = await h(new Request("http://127.0.0.1/mcp", { method: "POST", headers, body: JSON.stringify(init) }));
  const get = await h(new Request("http://127.0.0.1/mcp", { method: "GET", headers: { host: "127.0.0.1", accept: "text/event-stream", "mcp-session-id": "nope" } }));
  let sse = "mounted";
  try { createFetchHandler(server, { legacySse: true }); } catch (e) { sse = e.message; }
  const out = { status: post.status, session: post.headers.get("mcp-session-id") !== null, body: await post.json(), get: get.status, sse };
  await h.close();
  await server.close();
  return out;
}
const modernOnly = createMcpServer(definition(["2026-07-28"]), handlers(), { bindings: [modern], onerror: () => {} });
const dual = createMcpServer(definition(), handlers(), { bindings: [modern, latest], onerror: () => {} }, legacyEra);
console.log(JSON.stringify({ modernOnly: await run(modernOnly), dual: await run(dual) }));
`;

async function runChild(conditions: string[]): Promise<any> {
  // Below the repository, so @mcpgen/runtime resolves to this build.
  const dir = join(repoRoot, "tmp", `fetch-legacy-http-${process.pid}`);
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

const unsupported = (body: any) =>
  body.id === 1 && body.error?.code === -32022 && JSON.stringify(body.error).includes("2026-07-28");

test("bundlers' build: sessions come with the legacy era; a server of 2026-07-28 alone is stateless for legacy traffic", async () => {
  const r = await runChild(["deno"]);
  assert.is(r.dual.status, 200, JSON.stringify(r.dual));
  assert.is(r.dual.body.result?.protocolVersion, "2025-11-25", JSON.stringify(r.dual.body));
  assert.ok(r.dual.session, "the legacy initialize opened a session");
  assert.is(r.dual.get, 404, "a GET naming no live session");
  assert.is(r.dual.sse, "mounted");
  assert.is(r.modernOnly.status, 200);
  assert.ok(unsupported(r.modernOnly.body), JSON.stringify(r.modernOnly.body));
  assert.not.ok(r.modernOnly.session);
  assert.is(r.modernOnly.get, 405, "no legacy GET stream without the legacy era");
  assert.match(r.modernOnly.sse, /legacySse.*no legacy revision/);
});

test("Node's build: the fetch handler keeps legacy sessions whatever the server, as before", async () => {
  const r = await runChild([]);
  assert.ok(r.dual.session);
  assert.ok(unsupported(r.modernOnly.body), JSON.stringify(r.modernOnly.body));
  assert.is(r.modernOnly.get, 404);
  assert.is(r.modernOnly.sse, "mounted");
});

test.run();
