// Shared helpers of the manifest tests: repo paths, temp dirs, and a strict tsc run.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadManifest } from "../../generator/load/manifest.js";
import { buildServerModel } from "../../generator/model/build-server.js";
import { emitManifestTypes } from "../../generator/emit/manifest/types.js";

/** Repository root (this file runs from dist/test/manifest/). */
export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const fixture = (name: string, file = "mcp.manifest.json") => join(root, "test", "fixtures", name, file);

export function withTempDir<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "mcpgen-manifest-"));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

/** Runs `tsc --strict --noEmit` over `files` in `dir`; returns tsc's output and exit code. */
export function tscStrict(dir: string, files: string[], compiler = "typescript"): { code: number; output: string } {
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "ES2022",
        lib: ["ES2023"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        skipLibCheck: true,
        types: [],
        noUnusedLocals: false,
      },
      files,
    }),
  );
  const r = spawnSync(
    process.execPath,
    [join(root, "node_modules", compiler, "bin", "tsc"), "-p", join(dir, "tsconfig.json")],
    { encoding: "utf8", timeout: 120_000 },
  );
  return { code: r.status ?? 1, output: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

/** load → model → types for a manifest file. */
export function typesFor(path: string, options: { lenient?: boolean } = {}) {
  const loaded = loadManifest(path, "mcp.manifest.json", options);
  const model = buildServerModel(loaded);
  return { loaded, model, ...emitManifestTypes(model) };
}
