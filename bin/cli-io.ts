/** What every CLI command shares: output streams, flag parsing, the usage error (exit code 2). */
import type { DeployTarget } from "../generator/config.js";
import type { GenerateOptions } from "../generator/generate.js";

export const stdout = (line: string) => process.stdout.write(line + "\n");
export const stderr = (line: string) => process.stderr.write(line + "\n");

export class UsageError extends Error {}

export interface Flags {
  from?: unknown;
  schema?: unknown;
  manifest?: unknown;
  name?: unknown;
  out?: unknown;
  revision?: unknown;
  config?: unknown;
  cache?: unknown;
  watch?: unknown;
  debounce?: unknown;
  with?: unknown;
  lenient?: unknown;
  yes?: unknown;
  target?: unknown;
}

export function stringFlag(flags: Flags, name: keyof Flags): string | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  if (typeof v !== "string" || v === "") throw new UsageError(`--${name} needs a value`);
  return v;
}

export function apiOptions(flags: Flags): GenerateOptions {
  const options: GenerateOptions = { warn: (w) => stderr(`warning: ${w}`) };
  const schema = stringFlag(flags, "schema");
  const manifest = stringFlag(flags, "manifest");
  const out = stringFlag(flags, "out");
  const revision = stringFlag(flags, "revision");
  const config = stringFlag(flags, "config");
  const target = stringFlag(flags, "target");
  if (schema !== undefined) options.schema = schema;
  if (manifest !== undefined) options.manifest = manifest;
  if (out !== undefined) options.out = out;
  if (revision !== undefined) options.revision = revision;
  if (config !== undefined) options.config = config;
  // resolveTargets refuses a value that is not a DeployTarget
  if (target !== undefined) options.target = target as DeployTarget;
  if (flags.lenient === true) options.lenient = true;
  if (flags.cache === false) options.cache = false;
  else if (process.env.MCPGEN_CACHE_DIR) options.cache = process.env.MCPGEN_CACHE_DIR;
  return options;
}
