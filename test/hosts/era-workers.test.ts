// A Worker carries only the eras its manifest's `revisions` select (ABI 8: the generated server
// hands the runtime the legacy era only when it lists a legacy revision). Two one-tool servers are
// generated, bundled for workerd as wrangler would and served by Miniflare: the one of 2026-07-28
// alone, whose bundle holds no module of the legacy lifecycle, serves the SDK v2 client and still
// answers a legacy `initialize` with the revisions it supports; the one of 2025-11-25 alone serves
// the legacy era (initialize, then a tools/call of that revision). The first is generated as
// `mcpgen init --target workers` configures it (`target: "workers"`: the tool validators imported
// statically), the second with the default dynamic imports, so both shapes run on workerd.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { generate } from "../../generator/generate.js";
import { repoRoot } from "../helpers.js";
import { bundleFor, serveWorker, type Served } from "./runtimes.js";

// Below the repository, so the generated code's `@mcpgen/runtime/abi/v8` resolves to this runtime.
const work = join(repoRoot, "tmp", `era-workers-${process.pid}`);

const manifest = (revisions: string[]) => ({
  name: "add",
  version: "1.0.0",
  revisions,
  tools: [
    {
      name: "add",
      description: "Add two numbers",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
    },
  ],
});

/** Generates the one-tool server of `revisions` and bundles it as a Worker; its code and the inputs with bytes in it. */
async function worker(
  name: string,
  revisions: string[],
  target?: "workers",
): Promise<{ code: string; inputs: string[] }> {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "mcp.manifest.json"), JSON.stringify(manifest(revisions)));
  await generate({
    cwd: dir,
    manifest: join(dir, "mcp.manifest.json"),
    out: join(dir, "mcp"),
    cache: false,
    ...(target === undefined ? {} : { target }),
  });
  const b = await bundleFor(
    "workerd",
    `import { createFetchHandler } from "@mcpgen/runtime/fetch";
import { createAddServer } from ${JSON.stringify(join(dir, "mcp", "server.ts"))};
const handler = createFetchHandler(createAddServer({ tools: { add: ({ a, b }) => String(a + b) } }));
export default { fetch: handler };
`,
  );
  return { code: b.code, inputs: b.inputs };
}

/** One JSON-RPC POST to the Worker; the status and the parsed JSON answer. */
async function post(
  url: URL,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return { status: res.status, json: text === "" ? undefined : JSON.parse(text) };
}

const initialize = (protocolVersion: string) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "era-workers", version: "1.0.0" } },
});

/** A declaration of the legacy era's session, policy, server adapter or era router in an unminified bundle. */
const LEGACY_DECLARED = /\b(?:class|var|function) (?:ServerSession|LegacyPolicy|EraRouter|legacySession)\d*\b/;

const served: Served[] = [];
const serve = async (code: string, name: string): Promise<URL> => {
  const s = await serveWorker(code, join(work, name, "persist"));
  served.push(s);
  return new URL("/mcp", s.url);
};

test.after(async () => {
  await Promise.all(served.map((s) => s.stop().catch(() => {})));
  rmSync(work, { recursive: true, force: true });
});

test("a Worker of 2026-07-28 alone has no legacy lifecycle in it and serves 2026-07-28", async () => {
  const { code } = await worker("modern", ["2026-07-28"], "workers");
  // Not minified here: the legacy era's session, policy, adapter and router are declared under
  // their own names (a digit added when names collide).
  assert.not.ok(
    LEGACY_DECLARED.test(code),
    `the Worker of 2026-07-28 alone declares ${LEGACY_DECLARED.exec(code)?.[0]}`,
  );
  const url = await serve(code, "modern");
  const client = new ClientV2({ name: "era-workers", version: "1.0.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  } as never);
  await client.connect(new HttpV2(url));
  try {
    assert.is(client.getNegotiatedProtocolVersion(), "2026-07-28");
    const r = (await client.callTool({ name: "add", arguments: { a: 1, b: 2 } })) as { content: { text: string }[] };
    assert.is(r.content[0]!.text, "3");
    // refused by the statically imported validators, with their report
    const bad = (await client.callTool({ name: "add", arguments: { a: "one", b: 2 } })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    assert.is(bad.isError, true, JSON.stringify(bad));
    assert.is(bad.content[0]!.text, 'Invalid arguments for tool "add": /a must be number');
  } finally {
    await client.close();
  }
  // A legacy client is told what the server speaks, as before the legacy era left the bundle.
  const legacy = await post(url, initialize("2025-11-25"));
  assert.ok(legacy.json?.error, `initialize answered ${legacy.status} ${JSON.stringify(legacy.json)}`);
  assert.ok(JSON.stringify(legacy.json.error).includes("2026-07-28"), JSON.stringify(legacy.json.error));
});

test("a Worker of 2025-11-25 alone serves the legacy era", async () => {
  const { code } = await worker("legacy", ["2025-11-25"]);
  assert.ok(LEGACY_DECLARED.test(code), "the legacy era is in the Worker");
  const url = await serve(code, "legacy");
  const init = await post(url, initialize("2025-11-25"));
  assert.is(init.status, 200, JSON.stringify(init.json));
  assert.is(init.json.result.protocolVersion, "2025-11-25");
  assert.is(init.json.result.serverInfo.name, "add");
  // Workers serve the legacy era stateless: each POST on its own, at its header's revision.
  const call = await post(
    url,
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "add", arguments: { a: 2, b: 3 } } },
    { "mcp-protocol-version": "2025-11-25" },
  );
  assert.is(call.status, 200, JSON.stringify(call.json));
  assert.is(call.json.result.content[0].text, "5");
});

test.run();
