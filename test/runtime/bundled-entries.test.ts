// The runtime ships bundled (bin/bundle-runtime.mjs): every "exports" entry is one file and the
// code entries share lives in shared chunks. A class reached through two entries must be one
// class, or `instanceof` fails across them; a dynamic import inside the runtime must stay lazy.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as root from "@mcpgen/runtime";
import * as facades from "@mcpgen/runtime/facades";
import * as abi from "@mcpgen/runtime/abi";
import { repoRoot } from "../helpers.js";

test("McpError is one class whether imported from @mcpgen/runtime or @mcpgen/runtime/facades", () => {
  assert.type(root.McpError, "function");
  assert.type(root.createMcpServer, "function");
  assert.type(root.toolResult, "function");
  assert.is(root.McpError, facades.McpError);
  const fromFacades = new facades.McpError(-32602, "bad params");
  assert.ok(fromFacades instanceof root.McpError);
  assert.ok(new root.McpError(-32603, "internal") instanceof facades.McpError);
  assert.is(root.createMcpServer, facades.createMcpServer);
  assert.is(root.toolResult, facades.toolResult);
});

test("a protocol binding links the same ABI module the program imports", async () => {
  const rev = (await import("@mcpgen/runtime/protocol/2025-11-25/binding")) as { binding: { revision: string } };
  assert.is(rev.binding.revision, "2025-11-25");
  assert.is(abi.ABI_VERSION, (await import("@mcpgen/runtime/abi")).ABI_VERSION);
});

test("each exports entry is a single bundled file importing only chunks, dependencies and builtins", () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, "runtime", "package.json"), "utf8")) as { exports: Record<string, string | { default: string }> };
  for (const [key, t] of Object.entries(pkg.exports)) {
    if (typeof t === "string") continue;
    const code = readFileSync(join(repoRoot, "runtime", t.default), "utf8");
    for (const m of code.matchAll(/(?:^|;)\s*(?:import|export)\s*(?:[\w$*{},\s]*?\bfrom\s*)?"([^"]+)"/gm)) {
      const spec = m[1]!;
      if (spec.startsWith(".")) assert.match(spec, /(^|\/)chunks\/[\w-]+\.js$/, `${key} imports ${spec}, not a shared chunk`);
      else assert.not.ok(spec.startsWith("@mcpgen/runtime"), `${key} imports ${spec}: the bundle must not load itself by name`);
    }
    assert.match(code, /\/\/# sourceMappingURL=[\w.-]+\.js\.map\s*$/, `${key} links its source map`);
  }
});

test("the client behind facades' createMcpClient, the 2026-07-28 server path and tasks stay lazy chunks", () => {
  const code = readFileSync(join(repoRoot, "runtime", "dist", "facades.js"), "utf8");
  assert.match(code, /import\("\.\/chunks\/manifest-client-[\w]+\.js"\)/);
  const chunks = join(repoRoot, "runtime", "dist", "chunks");
  const all = readdirSync(chunks).filter((f) => f.endsWith(".js")).map((f) => readFileSync(join(chunks, f), "utf8")).join("\n");
  for (const name of ["modern-path", "task-path"]) {
    assert.ok(readdirSync(chunks).some((f) => f.startsWith(`${name}-`) && f.endsWith(".js")), `${name} is a chunk of its own`);
    assert.match(all, new RegExp(`import\\("\\./${name}-\\w+\\.js"\\)`), `${name} is loaded by a dynamic import`);
  }
});

test.run();
