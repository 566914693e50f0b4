// One cold manifest generation, run in a fresh process by bench/manifest.ts:
// load + validate + model + types emit + prettier, written to the given directory.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import prettier from "prettier";
import { loadManifest } from "../generator/load/manifest.js";
import { buildServerModel } from "../generator/model/build-server.js";
import { emitManifestTypes } from "../generator/emit/manifest-types.js";

const [manifestPath, outDir] = process.argv.slice(2);
if (!manifestPath || !outDir) throw new Error("usage: manifest-generate <manifest> <outDir>");
const t0 = performance.now();
const loaded = loadManifest(manifestPath);
const t1 = performance.now();
const model = buildServerModel(loaded);
const { file } = emitManifestTypes(model);
const t2 = performance.now();
const formatted = await prettier.format(file.contents, { parser: "typescript" });
const t3 = performance.now();
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, file.path), formatted);
process.stdout.write(JSON.stringify({ load: t1 - t0, emit: t2 - t1, format: t3 - t2, bytes: formatted.length, fixpoint: formatted === file.contents, tools: model.tools.length }) + "\n");
