/**
 * What the layout helpers save (not a test). types.ts and lists.ts grow with a manifest's schemas,
 * so their emitters lay them out as prettier would (indent.ts for types, print-data.ts for lists)
 * and the print stage skips prettier for them; the facades rendered from templates go through
 * prettier. Per manifest: the time to emit each file, and the time prettier (already loaded and
 * warmed, as it is for the facades) takes to format it at the print stage's options.
 * Usage: npx tsc -b && node dist/bench/layout.js [runs, default 5]
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadManifest, parseManifest } from "../generator/load/manifest.js";
import { buildServerModel } from "../generator/model/build-server.js";
import type { ServerModel } from "../generator/model/server-ir.js";
import { emitManifestTypes } from "../generator/emit/manifest/types.js";
import { emitManifestLists } from "../generator/emit/manifest/lists.js";
import { emitServer } from "../generator/emit/manifest/server.js";
import { emitClient } from "../generator/emit/manifest/client.js";
import { emitDefinition } from "../generator/emit/manifest/definition.js";
import { formatSource } from "../generator/print/format.js";
import { deepManifestText } from "./deep-manifest.js";
import { median } from "./stats.js";

const root = join(fileURLToPath(import.meta.url), "..", "..", "..");
const runs = Math.max(1, Number(process.argv[2] ?? 5));
const manifests: [string, () => ServerModel][] = [
  ["weather example", () => buildServerModel(loadManifest(join(root, "examples", "weather", "mcp.manifest.json")))],
  [
    "everything example",
    () => buildServerModel(loadManifest(join(root, "examples", "everything", "mcp.manifest.json"))),
  ],
  [
    "pasted tools/list",
    () => buildServerModel(loadManifest(join(root, "test", "fixtures", "tools-list-pasted", "mcp.manifest.json"))),
  ],
  [
    "50 deep tools (bench/manifest.ts)",
    () => buildServerModel(parseManifest(deepManifestText("typical"), "deep.json")),
  ],
];

async function time(fn: () => unknown): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

await formatSource("warm.ts", "export const warm = { a: 1 };\n");
console.log("file            | KiB   | emit ms | prettier ms");
for (const [name, build] of manifests) {
  const model = build();
  console.log(`-- ${name}`);
  const files: [string, () => string][] = [
    ["types.ts", () => emitManifestTypes(model, { printWidth: 120 }).file.contents],
    ["lists.ts", () => emitManifestLists(model).contents],
    ["server.ts", () => emitServer(model).contents],
    ["client.ts", () => emitClient(model).contents],
    ["definition.ts", () => emitDefinition(model).contents],
  ];
  for (const [path, emit] of files) {
    const text = emit();
    const emitMs = await time(emit);
    const formatMs = await time(() => formatSource(path, text));
    console.log(
      `${path.padEnd(15)} | ${(text.length / 1024).toFixed(1).padStart(5)} | ${emitMs.toFixed(1).padStart(7)} | ${formatMs.toFixed(1).padStart(11)}`,
    );
  }
}
