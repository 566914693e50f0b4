// `@mcpgen/runtime/fetch` and what a Worker adds to it (the generated everything server: its
// definition, validators and every revision's lazily imported modules, the server and both eras'
// lifecycles) bundled by esbuild as for Cloudflare Workers: platform "neutral", conditions
// workerd/worker/browser, the shipped runtime/dist files. No `node:` import may survive in the
// bundle and no Node global (process, Buffer, setImmediate, __dirname, require) may be read
// unguarded; `globalThis.process?.…` probes of the host are allowed. Then the bundle is run in a
// V8 context that has only web-platform globals, and a tools/call is served through it, in both
// eras: nothing on that path reaches for Node at import or while serving.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { build, type Plugin } from "esbuild";
import { createContext, runInContext } from "node:vm";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const generated = fileURLToPath(new URL("../../examples/everything/src/mcp/server.js", import.meta.url));

/** Records every `node:` import (and bare Node builtin) esbuild resolves, and keeps it out of the bundle. */
function nodeImports(seen: Set<string>): Plugin {
  const builtin =
    /^(node:|(assert|buffer|child_process|crypto|events|fs|http|https|module|net|os|path|process|stream|url|util|worker_threads|zlib)(\/|$))/;
  return {
    name: "node-imports",
    setup(b) {
      b.onResolve({ filter: builtin }, (a) => {
        seen.add(`${a.path} (from ${a.importer.slice(root.length)})`);
        return { path: a.path, external: true };
      });
    },
  };
}

async function bundle(contents: string, format: "esm" | "iife"): Promise<{ text: string; imports: string[] }> {
  const seen = new Set<string>();
  const r = await build({
    stdin: { contents, resolveDir: root, sourcefile: "worker-entry.js", loader: "js" },
    bundle: true,
    write: false,
    format,
    ...(format === "iife" ? { globalName: "worker" } : {}),
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    target: "es2022",
    metafile: true,
    logLevel: "silent",
    plugins: [nodeImports(seen)],
  });
  const out = Object.values(r.metafile!.outputs)[0]!;
  // What survived tree-shaking: an import esbuild resolved but dropped with its unused code is fine.
  const kept = out.imports.filter((i) => i.external).map((i) => i.path);
  return { text: r.outputFiles![0]!.text, imports: kept.filter((p) => [...seen].some((s) => s.startsWith(`${p} `))) };
}

/** Free reads of Node globals: not a member (`x.process`), not a `typeof` probe, not a declaration's own name. */
const NODE_GLOBALS = /(?<![.\w$]|typeof )\b(process|Buffer|setImmediate|__dirname|__filename|require)\b(?!\s*:)/g;

function nodeGlobalReads(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(NODE_GLOBALS)) {
    const line = text.slice(text.lastIndexOf("\n", m.index) + 1, text.indexOf("\n", m.index));
    // Comments and strings mention them ("node:process", "process.stdin" in a doc comment).
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) continue;
    const before = text.slice(Math.max(0, m.index - 1), m.index);
    if (before === '"' || before === "'" || before === "`") continue;
    found.push(line.trim().slice(0, 160));
  }
  return found;
}

const ENTRY = `export { createFetchHandler } from "@mcpgen/runtime/fetch";\nexport { createEverythingServer } from ${JSON.stringify(generated)};\n`;

test("the fetch entry, the auth guard's entry and a generated server bundle for Workers with no node: import and no Node global", async () => {
  for (const contents of [
    `export * from "@mcpgen/runtime/fetch";\n`,
    `export * from "@mcpgen/runtime/auth/server";\n`,
    ENTRY,
  ]) {
    const { text, imports } = await bundle(contents, "esm");
    assert.ok(text.length > 10_000, "the bundle looks empty");
    assert.equal(imports, [], `node: imports in the Workers bundle of ${contents.trim()}`);
    assert.equal(nodeGlobalReads(text), [], `Node globals read in the Workers bundle of ${contents.trim()}`);
  }
});

test("the check sees a node: import and a Node global when they are there", async () => {
  const { imports, text } = await bundle(
    `import { randomUUID } from "node:crypto";\nexport const id = () => randomUUID() + process.pid + Buffer.from("x");\n`,
    "esm",
  );
  assert.equal(imports, ["node:crypto"]);
  assert.ok(nodeGlobalReads(text).some((l) => l.includes("process.pid")));
  assert.equal(
    nodeGlobalReads("const a = globalThis.process?.nextTick;\nconst b = typeof process;\n// process.exit\n"),
    [],
  );
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
