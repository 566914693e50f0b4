// The `toolHeaders` feature (the Mcp-Param-* check of 2026-07-28 tools/calls): the generated server
// is handed it exactly when a tool's input schema names x-mcp-header and the manifest speaks
// 2026-07-28, so a server whose tools mirror nothing carries none of it (the runtime refuses a
// server whose tools need it and lack it: test/runtime/server-features.test.ts).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateManifest } from "../../generator/render/manifest.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";

/** The generated server.ts of a manifest of `revisions` whose one tool takes `inputSchema`. */
function emittedServer(revisions: string[], inputSchema: object): string {
  const dir = tempDir("tool-headers-");
  try {
    mkdirSync(dir, { recursive: true });
    const manifest = { name: "m", version: "1.0.0", revisions, tools: [{ name: "t", inputSchema }] };
    writeFileSync(join(dir, "mcp.manifest.json"), JSON.stringify(manifest));
    const r = generateManifest(join(dir, "mcp.manifest.json"), { display: "mcp.manifest.json" });
    return r.files.find((f) => f.path === "server.ts")!.contents;
  } finally {
    removeDir(dir);
  }
}

const MIRRORED = { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } };
// Not where a header may come from (only through `properties`): the runtime reports and ignores it, so it still needs the feature.
const MISPLACED = { type: "object", anyOf: [{ properties: { region: { type: "string", "x-mcp-header": "Region" } } }] };

test("a 2026-07-28 server whose tool names x-mcp-header is handed the toolHeaders feature", () => {
  for (const schema of [MIRRORED, MISPLACED]) {
    const server = emittedServer(["2026-07-28"], schema);
    assert.match(server, "toolHeaders: runtime.serveToolHeaders");
    assert.match(server, "tool headers)");
  }
  assert.match(emittedServer(["2026-07-28", "2025-11-25"], MIRRORED), "toolHeaders: runtime.serveToolHeaders");
});

test("a server whose tools mirror nothing, or that speaks no 2026-07-28, is not", () => {
  const plain = emittedServer(["2026-07-28"], { type: "object", properties: { region: { type: "string" } } });
  assert.not.match(plain, "serveToolHeaders");
  assert.not.match(plain, "tool headers");
  // A description quoting the annotation is no annotation.
  const quoted = emittedServer(["2026-07-28"], { type: "object", description: 'no "x-mcp-header" here' });
  assert.not.match(quoted, "serveToolHeaders");
  assert.not.match(emittedServer(["2025-11-25"], MIRRORED), "serveToolHeaders");
});

test.run();
