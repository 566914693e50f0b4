import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The mcpgen package root (where package.json and schema/ live), found by walking up from this
 * module so it works from the sources, from dist/, and from an installed package alike.
 */
function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "mcpgen") return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error("mcpgen package root not found above " + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export const packageRoot = findPackageRoot();
export const schemaDir = join(packageRoot, "schema");
export const mcpgenVersion = (
  JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { version: string }
).version;

/**
 * The folder beside the bundled revisions' own (`generated/<rev>/`) that holds the validator
 * modules several of them use (`generated/shared/validators/`); not a revision id.
 */
export const SHARED_FOLDER = "shared";
