// The generated server names only the validators of the methods its manifest serves
// (generator/model/served-methods.ts): what the runtime refuses for an undeclared capability is
// left out, everything it may validate stays, and a bundle of a tools-only server runs as before:
// an unserved method is -32601, bad params of a served one -32602.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { servedMethods } from "../../generator/model/served-methods.js";
import { readOverlay } from "../../generator/model/overlay.js";
import { bundledRevisions } from "../../generator/load/schema-manifest.js";
import { repoRoot } from "../helpers.js";
import { typesFor } from "./helpers.js";
import { META } from "../runtime/modern/fixture.js";

const tools = typesFor(join(repoRoot, "bench", "add", "text.manifest.json")).model;
const everything = typesFor(join(repoRoot, "examples", "everything", "mcp.manifest.json")).model;

test("a tools-only server serves tools, the ungated lifecycle and every client notification; not prompts, resources, completion or logging", () => {
  assert.equal(servedMethods(tools, "2026-07-28").params.sort(), [
    "notifications/cancelled",
    "server/discover",
    "subscriptions/listen",
    "tools/call",
    "tools/list",
  ]);
  const legacy = servedMethods(tools, "2025-11-25");
  for (const m of ["initialize", "ping", "notifications/initialized", "notifications/roots/list_changed", "tools/call"])
    assert.ok(legacy.params.includes(m), m);
  for (const m of [
    "prompts/get",
    "resources/read",
    "resources/subscribe",
    "logging/setLevel",
    "completion/complete",
    "tasks/get",
  ])
    assert.not.ok(legacy.params.includes(m), m);
  // 2024-11-05 gates completion/complete by no capability: it keeps its validator.
  assert.ok(servedMethods(tools, "2024-11-05").params.includes("completion/complete"));
  // The results of the server's own requests are validated whatever it serves.
  assert.ok(legacy.results.includes("sampling/createMessage") && legacy.results.includes("elicitation/create"));
});

test("a server declaring every feature keeps every validator a server receives", () => {
  for (const revision of bundledRevisions()) {
    const received = Object.entries(readOverlay(revision).methods)
      .filter(([, m]) => m.from !== "server")
      .map(([name]) => name);
    const served = servedMethods(everything, revision).params;
    // everything declares tools, prompts, resources (subscribe), logging, completions and task tools
    assert.equal(served.sort(), received.sort(), revision);
  }
});

/** The bench's tools-only stdio server (every revision) answering `messages`; its `answers` responses. */
function exchange(messages: unknown[], answers: number): Promise<any[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, "dist", "bench", "servers", "mcpgen-stdio-text.js")], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`timed out; stderr: ${stderr}`));
    }, 10_000);
    child.stderr.on("data", (d) => (stderr += d));
    child.stdout.on("data", (d) => {
      stdout += d;
      if (stdout.split("\n").filter((l) => l.trim() !== "").length >= answers) child.stdin.end();
    });
    child.on("error", reject);
    child.on("close", () => {
      clearTimeout(timer);
      resolve(
        stdout
          .split("\n")
          .filter((l) => l.trim() !== "")
          .map((l) => JSON.parse(l)),
      );
    });
    for (const m of messages) child.stdin.write(JSON.stringify(m) + "\n");
  });
}

test("2026-07-28 on a tools-only server: prompts/get and resources/read are -32601, bad tools/call params -32602, a good call answers", async () => {
  const request = (id: number, method: string, params: object) => ({
    jsonrpc: "2.0",
    id,
    method,
    params: { ...params, _meta: META },
  });
  const responses = await exchange(
    [
      request(1, "prompts/get", { name: "x" }),
      request(2, "resources/read", { uri: "file:///x" }),
      request(3, "tools/call", { name: 5 }),
      request(4, "tools/call", { name: "add", arguments: { a: 1, b: 2 } }),
    ],
    4,
  );
  const byId = new Map(responses.map((r) => [r.id, r]));
  assert.is(byId.get(1).error.code, -32601);
  assert.is(byId.get(2).error.code, -32601);
  // the protocol's params validator answered, not the handler
  assert.is(byId.get(3).error.code, -32602);
  assert.equal(byId.get(3).error.data.pointer, "/params/name");
  assert.equal(byId.get(4).result.content, [{ type: "text", text: "3" }]);
});

test("legacy 2025-11-25 on a tools-only server: prompts/list is -32601, bad tools/call params -32602", async () => {
  const responses = await exchange(
    [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "prompts/list" },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: 5 } },
    ],
    3,
  );
  const byId = new Map(responses.map((r) => [r.id, r]));
  assert.is(byId.get(1).result.protocolVersion, "2025-11-25");
  assert.is(byId.get(2).error.code, -32601);
  assert.is(byId.get(3).error.code, -32602);
  assert.equal(byId.get(3).error.data.pointer, "/params/name");
});

test.run();
