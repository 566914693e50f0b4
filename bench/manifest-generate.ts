// One cold manifest generation, run in a fresh process by bench/manifest.ts:
// load + validate + model + emit (types.ts, lists.ts) + prettier, written to the given directory.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import prettier from "prettier";
import { generateManifest } from "../generator/generate-manifest.js";

const [manifestPath, outDir] = process.argv.slice(2);
if (!manifestPath || !outDir) throw new Error("usage: manifest-generate <manifest> <outDir>");
const t0 = performance.now();
const { model, files } = generateManifest(manifestPath);
const t1 = performance.now();
let fixpoint = true;
let bytes = 0;
let ajvFormat = 0;
const formatted: string[] = [];
for (const file of files) {
  const start = performance.now();
  const text = await prettier.format(file.contents, { parser: "typescript" });
  if (file.path.endsWith(".ajv.ts")) ajvFormat += performance.now() - start;
  else fixpoint &&= text === file.contents;
  bytes += file.contents.length;
  formatted.push(text);
}
const t2 = performance.now();
mkdirSync(outDir, { recursive: true });
files.forEach((file, i) => writeFileSync(join(outDir, file.path), formatted[i]!));
process.stdout.write(JSON.stringify({ generate: t1 - t0, format: t2 - t1, ajvFormat, bytes, fixpoint, tools: model.tools.length }) + "\n");
