// `@mcpgen/runtime/fetch` and what a Worker adds to it (the generated everything server: its
// definition, validators and every revision's lazily imported modules, the server and both eras'
// lifecycles) bundled as wrangler bundles a Worker (bench/like-wrangler.ts: esbuild, the browser
// platform, conditions workerd/worker/browser, the shipped runtime/dist files). No Node builtin
// may be imported (not even by code the bundle then drops: wrangler warns of those too) and no
// Node global (process, Buffer, setImmediate, __dirname, require, ...) read, a `typeof` probe
// included; `globalThis.process?.…` probes of the host are allowed. Then the bundle is run in a
// V8 context that has only web-platform globals, and a tools/call is served through it, in both
// eras: nothing on that path reaches for Node at import or while serving.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { build } from "esbuild";
import { createContext, runInContext } from "node:vm";
import { fileURLToPath } from "node:url";
import { WRANGLER_OPTIONS, nodeBuiltins, nodeGlobalReads, nodeReach } from "../../bench/like-wrangler.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const generated = fileURLToPath(new URL("../../examples/everything/src/mcp/server.js", import.meta.url));

async function bundle(contents: string, format: "esm" | "iife"): Promise<{ text: string; reach: string[] }> {
  const builtins: string[] = [];
  const r = await build({
    ...WRANGLER_OPTIONS,
    stdin: { contents, resolveDir: root, sourcefile: "worker-entry.js", loader: "js" },
    write: false,
    format,
    ...(format === "iife" ? { globalName: "worker" } : {}),
    logLevel: "silent",
    plugins: [nodeBuiltins(builtins, root)],
  });
  const text = r.outputFiles![0]!.text;
  return { text, reach: await nodeReach(text, builtins) };
}

const ENTRY = `export { createFetchHandler } from "@mcpgen/runtime/fetch";\nexport { createEverythingServer } from ${JSON.stringify(generated)};\n`;

test("the fetch entry, the auth guard's entry and a generated server bundle for Workers with no Node builtin and no Node global", async () => {
  for (const contents of [
    `export * from "@mcpgen/runtime/fetch";\n`,
    `export * from "@mcpgen/runtime/auth/server";\n`,
    ENTRY,
  ]) {
    const { text, reach } = await bundle(contents, "esm");
    assert.ok(text.length > 10_000, "the bundle looks empty");
    assert.equal(reach, [], `Node reaches the Workers bundle of ${contents.trim()}`);
  }
});

test("the check sees a Node builtin and a Node global when they are there", async () => {
  const { reach } = await bundle(
    `import { randomUUID } from "node:crypto";\nimport "node:fs";\nexport const id = () => randomUUID() + process.pid + Buffer.from("x");\n`,
    "esm",
  );
  assert.equal(reach, [
    'import of "node:crypto" from worker-entry.js',
    'import of "node:fs" from worker-entry.js',
    "Node globals read: Buffer, process",
  ]);
  assert.equal(
    await nodeGlobalReads(
      'const a = globalThis.process?.nextTick;\n// process.exit\nconst s = "Buffer";\nexport function f(require) { return require; }\n',
    ),
    [],
    "members, comments, strings and bindings of the same name are not reads",
  );
  assert.equal(await nodeGlobalReads("export const b = typeof process;\n"), ["process"], "a typeof probe is one");
});

/** Only what the web platform gives a Worker: no process, Buffer, setImmediate or require. */
function webGlobals(): Record<string, unknown> {
  const names = [
    "Request",
    "Response",
    "Headers",
    "ReadableStream",
    "WritableStream",
    "TransformStream",
    "TextEncoder",
    "TextDecoder",
    "URL",
    "URLSearchParams",
    "AbortController",
    "AbortSignal",
    "crypto",
    "atob",
    "btoa",
    "setTimeout",
    "clearTimeout",
    "setInterval",
    "clearInterval",
    "queueMicrotask",
    "structuredClone",
    "console",
    "Event",
    "EventTarget",
    "ByteLengthQueuingStrategy",
    "CountQueuingStrategy",
    "DOMException",
  ];
  const g: Record<string, unknown> = {};
  for (const n of names) g[n] = (globalThis as Record<string, unknown>)[n];
  return g;
}

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
};

test("the bundle serves tools/call in a context with web globals only (2026-07-28 and legacy stateless)", async () => {
  const { text: code } = await bundle(ENTRY, "iife");
  // What workerd says it is: the handler's sessions default to off there.
  const context = createContext({ ...webGlobals(), navigator: { userAgent: "Cloudflare-Workers" } });
  runInContext(`${code}\nglobalThis.worker = worker;`, context, { filename: "worker-bundle.js" });
  const worker = context.worker as {
    createFetchHandler: (s: unknown, o?: object) => (r: Request) => Promise<Response>;
    createEverythingServer: (h: object) => { close(): Promise<void> };
  };
  // Every entry of the manifest has a handler; only test_simple_text is called.
  const text = () => ({ content: [{ type: "text", text: "hello from the bundle" }] });
  const any = new Proxy({}, { get: () => text });
  const server = worker.createEverythingServer({ tools: any, prompts: any, resources: any });
  const handler = worker.createFetchHandler(server, { allowedHosts: ["mcp.example"] });
  const call = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "test_simple_text", arguments: {}, _meta: META },
  };
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    host: "mcp.example",
  };
  let res = await handler(
    new Request("https://mcp.example/mcp", {
      method: "POST",
      headers: {
        ...headers,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "test_simple_text",
      },
      body: JSON.stringify(call),
    }),
  );
  assert.is(res.status, 200);
  let body = (await res.json()) as { result: { content: { text: string }[]; resultType: string } };
  assert.equal([body.result.resultType, body.result.content[0]!.text], ["complete", "hello from the bundle"]);
  const legacy = { ...call, params: { name: "test_simple_text", arguments: {} } };
  res = await handler(
    new Request("https://mcp.example/mcp", {
      method: "POST",
      headers: { ...headers, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify(legacy),
    }),
  );
  assert.is(res.status, 200);
  body = (await res.json()) as typeof body;
  assert.is(body.result.content[0]!.text, "hello from the bundle");
  assert.is(res.headers.get("mcp-session-id"), null, "served stateless: no sessions on Workers by default");
  // An initialize opens no session there either: each POST stands alone.
  const init = {
    jsonrpc: "2.0",
    id: 2,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  };
  res = await handler(new Request("https://mcp.example/mcp", { method: "POST", headers, body: JSON.stringify(init) }));
  assert.is(res.status, 200);
  assert.is(res.headers.get("mcp-session-id"), null);
  await res.text();
  res = await handler(
    new Request("https://elsewhere.example/mcp", {
      method: "POST",
      headers: { ...headers, host: "elsewhere.example" },
      body: "{}",
    }),
  );
  assert.is(res.status, 421);
  await server.close();
});

test.run();
