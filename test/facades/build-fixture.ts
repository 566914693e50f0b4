// Generates a manifest fixture into a temp dir under the repo (so @mcpgen/runtime resolves), adds
// the fixture's hand-written files, compiles everything with tsc --strict and returns the modules.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { generateManifest } from "../../generator/render/manifest.js";
import { printFiles } from "../../generator/print/index.js";
import { root } from "../manifest/helpers.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";

export interface BuiltFixture {
  dir: string;
  /** tsc's exit code and output (type errors, unused @ts-expect-error). */
  tsc: { code: number; output: string };
  load<T = any>(rel: string): Promise<T>;
  cleanup(): void;
}

export async function buildFixture(name: string, extra: string[] = []): Promise<BuiltFixture> {
  const fixtureDir = join(root, "test", "fixtures", name);
  const r = generateManifest(join(fixtureDir, "mcp.manifest.json"), { display: "mcp.manifest.json" });
  const printed = await printFiles(r.files, r.model.source);
  const dir = tempDir(`facades-${name}-`);
  mkdirSync(join(dir, "mcp"));
  for (const f of printed) writeFileSync(join(dir, "mcp", f.path), f.contents);
  const own = readdirSync(fixtureDir).filter((f) => f.endsWith(".ts"));
  for (const f of own) copyFileSync(join(fixtureDir, f), join(dir, f));
  const files = [...printed.map((f) => `mcp/${f.path}`), ...own, ...extra];
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: "ES2022",
        lib: ["ES2023", "DOM"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        skipLibCheck: true,
        types: ["node"],
        outDir: "out",
        noEmitOnError: false,
      },
      files,
    }),
  );
  const p = spawnSync(
    process.execPath,
    [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(dir, "tsconfig.json")],
    { encoding: "utf8", timeout: 120_000 },
  );
  const tsc = { code: p.status ?? 1, output: `${p.stdout ?? ""}${p.stderr ?? ""}` };
  return {
    dir,
    tsc,
    load: async (rel) => {
      const file = join(dir, "out", rel);
      if (!existsSync(file)) throw new Error(`not compiled: ${rel}\n${tsc.output}`);
      return import(pathToFileURL(file).href);
    },
    cleanup: () => removeDir(dir),
  };
}
