/**
 * The programmatic API behind the CLI: `generate` writes bindings, `check` reports whether the
 * bindings on disk are what `generate` would write. Both throw McpgenError on bad input.
 */
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { McpgenError } from "./errors.js";
import { bundledRevisions, sha256 } from "./load/schema-manifest.js";
import { sideFilesDigest } from "./load/skills.js";
import {
  displayPath,
  loadConfig,
  resolveTargets,
  type DeployTarget,
  type Target,
  type TargetOptions,
} from "./config.js";
import { loadSchema } from "./load/load.js";
import type { EmittedFile } from "./model/ir.js";
import { servedRevisions } from "./model/served-revisions.js";
import { mcpgenVersion, packageRoot, SHARED_FOLDER } from "./paths.js";
import { toTypeName } from "./names/index.js";
import { renderFile } from "./emit/files.js";
import { cacheKey, readCache, writeCache } from "./write/cache.js";
import { commitOutput } from "./write/commit.js";
import { compareOutput, isClean, type OutputDiff } from "./write/compare.js";
import { runtimeImports } from "./emit/runtime-imports.js";

export interface GenerateOptions extends TargetOptions {
  /** Cache directory (default `<cwd>/.mcpgen-cache`); false disables the cache. */
  cache?: string | false;
  /** Called with each warning (things inferred for an unbundled schema) as it is found. */
  warn?: (message: string) => void;
  /** A manifest's tool schemas that are not valid JSON Schema are warnings, not errors (for schemas captured from servers). */
  lenient?: boolean;
}

export interface TargetResult {
  /** The input as named in banners: bundled revision id or path relative to cwd. */
  schema: string;
  /** Output directory relative to cwd. */
  out: string;
  revision: string;
  /** Paths relative to `out`, sorted. */
  files: string[];
  /** Output came from the cache (no emitter ran). */
  cached: boolean;
  warnings: string[];
}

export interface GenerateResult {
  targets: (TargetResult & { written: boolean })[];
}

export interface CheckResult {
  ok: boolean;
  targets: (TargetResult & { diff: OutputDiff })[];
  /** One line per problem, `<out>/<file> (stale|missing|extra)`. */
  problems: string[];
}

interface Produced {
  schema: string;
  revision: string;
  files: EmittedFile[];
  cached: boolean;
  warnings: string[];
}

async function produceManifest(
  target: Target & { manifest: string },
  cwd: string,
  options: GenerateOptions,
): Promise<Produced> {
  const abs = resolve(cwd, target.manifest);
  const display = displayPath(cwd, abs);
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new McpgenError(
      code === "ENOENT"
        ? "file not found"
        : code === "EISDIR"
          ? "is a directory, expected mcp.manifest.json"
          : `cannot read (${code})`,
      { file: display },
    );
  }
  // Skill folders and resource files are inputs too: a change to one regenerates (and re-banners) the output.
  const sideFiles = sideFilesDigest(bytes.toString("utf8"), dirname(abs));
  // The target is an input too (workers output imports differently); "node", the default, adds nothing,
  // so outputs generated before the option existed keep their banners.
  const host = otherTarget(target.target) === undefined ? "" : `\u0000target ${target.target}`;
  const extra = (sideFiles === undefined ? "" : `\u0000files ${sideFiles}`) + host;
  const sha = extra === "" ? sha256(bytes) : sha256(Buffer.concat([bytes, Buffer.from(extra)]));
  // Banners name the manifest relative to the output folder, so the bytes do not depend on cwd.
  const named = fromOut(target.out, abs);
  const cacheDir = cacheDirOf(cwd, options);
  // lenient turns errors into warnings: never serve one mode's output to the other. The cwd-relative
  // name is in the key too because cached warnings quote it.
  const key = cacheKey({
    sha256: sha,
    display: `${named}\n${display}`,
    revision: options.lenient ? "manifest lenient" : "manifest",
  });
  const hit = cacheDir ? readCache(cacheDir, key) : undefined;
  const docs = (revision: string) => outputDocs(bytes, abs, target.out, revision, target.target);
  if (hit) {
    for (const w of hit.warnings) options.warn?.(w);
    return {
      schema: display,
      revision: hit.revision,
      files: sortFiles([...hit.files, ...docs(hit.revision)]),
      cached: true,
      warnings: hit.warnings,
    };
  }
  const { renderManifest } = await import("./render/manifest.js");
  const warnings: string[] = [];
  const rendered = await renderManifest(
    abs,
    { display: named, sha256: sha },
    display,
    (w) => {
      warnings.push(w);
      options.warn?.(w);
    },
    options.lenient ?? false,
    target.target === "workers",
  );
  const revision = rendered.revisions.join(", ");
  // the protocol bindings are not copied: bindings.ts imports them from @mcpgen/runtime/protocol/<rev>
  const files = sortFiles([...rendered.files]);
  if (cacheDir) writeCache(cacheDir, key, { revision, warnings, files });
  return { schema: display, revision, files: sortFiles([...files, ...docs(revision)]), cached: false, warnings };
}

const posix = (p: string) => p.split("\\").join("/");

/** `abs` as named from the output folder `out` (absolute when on another drive). */
/** Where generation caches its results (`options.cache`, default `<cwd>/.mcpgen-cache`); null: no cache. */
function cacheDirOf(cwd: string, options: GenerateOptions): string | null {
  return options.cache === false ? null : resolve(cwd, options.cache ?? ".mcpgen-cache");
}

function fromOut(out: string, abs: string): string {
  const rel = relative(out, abs);
  return rel === "" ? "." : posix(isAbsolute(rel) ? abs : rel);
}

const sortFiles = (files: EmittedFile[]) => files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

/**
 * README.md (what the files are, how to regenerate, do not edit) and .gitattributes
 * (linguist-generated) of a manifest's output folder, from `templates/output/`. They name the
 * output folder, which the cache key does not cover, so they are rendered on every run.
 */
function outputDocs(
  manifestBytes: Buffer,
  manifestPath: string,
  outDir: string,
  revision: string,
  target?: DeployTarget,
): EmittedFile[] {
  const view = outputDocsView(manifestBytes, manifestPath, outDir, revision, target);
  return [renderFile("manifest", "README.md", view), renderFile("manifest", ".gitattributes", view)];
}

/** The target when it is not the default ("node" and absent generate the same code). */
function otherTarget(target: DeployTarget | undefined): DeployTarget | undefined {
  return target === "node" ? undefined : target;
}

export function outputDocsView(
  manifestBytes: Buffer,
  manifestPath: string,
  outDir: string,
  revision: string,
  target?: DeployTarget,
) {
  const name = (JSON.parse(manifestBytes.toString("utf8")) as { name: string }).name;
  const manifest = fromOut(outDir, manifestPath);
  const spoken = servedRevisions(revision.split(", "), manifest);
  // The commands are given as run from the manifest's folder: the one place both paths are known.
  const manifestDir = dirname(manifestPath);
  return {
    version: mcpgenVersion,
    manifest,
    manifestFile: posix(relative(manifestDir, manifestPath)),
    out: posix(relative(manifestDir, outDir)) || ".",
    // the commands regenerate what is here: a target other than node is part of them
    target: otherTarget(target) ?? false,
    typeName: toTypeName(name),
    revisions: spoken.join(", "),
    abi: runtimeImports.abi,
  };
}

/**
 * mcpgen's bundled revisions are generated together: a validator several of them share is one
 * module (emit/protocol/validators/share.ts), so each revision's output depends on every bundled schema.
 */
interface BundledRun {
  /** Digest of every bundled schema, part of each bundled target's cache key. */
  digest: string;
  /** The bundled revisions, oldest first. */
  revisions: string[];
  context(): Promise<import("./emit/protocol/registry.js").EmitContext>;
}

function bundledRun(): BundledRun {
  // Oldest first: the order the shared modules' declarations follow.
  const revisions = [...bundledRevisions()].sort();
  const digest = sha256(Buffer.from(revisions.map((r) => `${r} ${loadSchema(r).source.sha256}`).join("\n")));
  let context: Promise<import("./emit/protocol/registry.js").EmitContext> | undefined;
  return {
    digest,
    revisions,
    context: () => (context ??= import("./render/protocol.js").then((m) => m.bundledSharing(revisions))),
  };
}

async function produce(target: Target, cwd: string, options: GenerateOptions, bundled?: BundledRun): Promise<Produced> {
  if (target.manifest !== undefined) return produceManifest({ ...target, manifest: target.manifest }, cwd, options);
  const loaded = loadSchema(target.schema, { cwd, ...(target.revision ? { revision: target.revision } : {}) });
  // A schema given by path is named in banners relative to the output folder (a bundled one by its id).
  const named =
    loaded.bundled === target.schema || target.out === ""
      ? loaded.source.display
      : fromOut(target.out, resolve(cwd, target.schema));
  const cacheDir = cacheDirOf(cwd, options);
  const shared = bundled !== undefined && loaded.bundled === target.schema ? bundled : undefined;
  const key = cacheKey({
    sha256: loaded.source.sha256,
    display: `${named}\n${loaded.source.display}${shared ? `\nshared with ${shared.digest}` : ""}`,
    revision: target.revision,
  });
  const hit = cacheDir ? readCache(cacheDir, key) : undefined;
  if (hit) {
    for (const w of hit.warnings) options.warn?.(w);
    return {
      schema: loaded.source.display,
      revision: hit.revision,
      files: hit.files,
      cached: true,
      warnings: hit.warnings,
    };
  }
  const { render } = await import("./render/protocol.js");
  const warnings: string[] = [];
  const rendered = await render(
    loaded,
    (w) => {
      warnings.push(w);
      options.warn?.(w);
    },
    { display: named, sha256: loaded.source.sha256 },
    shared ? await shared.context() : {},
  );
  if (cacheDir) writeCache(cacheDir, key, { revision: rendered.revision, warnings, files: rendered.files });
  return { schema: loaded.source.display, revision: rendered.revision, files: rendered.files, cached: false, warnings };
}

/** Where the modules several bundled revisions use are written: `generated/shared/`, beside the revisions' folders. */
const sharedOut = () => join(packageRoot, "generated", SHARED_FOLDER);

/** The shared folder of the bundled revisions (`generated/shared/`), as a target's output. */
async function produceShared(bundled: BundledRun, cwd: string, options: GenerateOptions): Promise<Produced> {
  const source = { display: bundled.revisions.join(", "), sha256: bundled.digest };
  const cacheDir = cacheDirOf(cwd, options);
  const key = cacheKey({
    sha256: bundled.digest,
    display: `${source.display}\n${SHARED_FOLDER}`,
    revision: SHARED_FOLDER,
  });
  const hit = cacheDir ? readCache(cacheDir, key) : undefined;
  if (hit) return { schema: source.display, revision: SHARED_FOLDER, files: hit.files, cached: true, warnings: [] };
  const { renderShared } = await import("./render/protocol.js");
  const files = await renderShared(await bundled.context(), source);
  if (cacheDir) writeCache(cacheDir, key, { revision: SHARED_FOLDER, warnings: [], files });
  return { schema: source.display, revision: SHARED_FOLDER, files, cached: false, warnings: [] };
}

/** Every target's output, produced concurrently; in maintainer mode the shared folder's last. */
async function produceAll(
  targets: Target[],
  cwd: string,
  options: GenerateOptions,
): Promise<{ targets: Target[]; produced: Produced[] }> {
  const bundled = options.bundled ? bundledRun() : undefined;
  const produced = await Promise.all([
    ...targets.map((t) => produce(t, cwd, options, bundled)),
    ...(bundled ? [produceShared(bundled, cwd, options)] : []),
  ]);
  return { targets: bundled ? [...targets, { schema: SHARED_FOLDER, out: sharedOut() }] : targets, produced };
}

export async function generate(options: GenerateOptions = {}): Promise<GenerateResult> {
  const cwd = options.cwd ?? process.cwd();
  // Everything is produced before anything is written, so bad input never leaves a partial set.
  // Targets are produced concurrently so one target's emitters overlap another's formatting.
  const { targets, produced } = await produceAll(await targetsOf(options, cwd), cwd, options);
  const results: GenerateResult["targets"] = [];
  targets.forEach((t, i) => {
    const p = produced[i]!;
    const out = displayPath(cwd, t.out);
    const { written } = commitOutput(t.out, p.files, out);
    results.push({ ...summary(p, out), written });
  });
  return { targets: results };
}

export async function check(options: GenerateOptions = {}): Promise<CheckResult> {
  const cwd = options.cwd ?? process.cwd();
  const results: CheckResult["targets"] = [];
  const problems: string[] = [];
  const { targets, produced } = await produceAll(await targetsOf(options, cwd), cwd, options);
  targets.forEach((t, i) => {
    const p = produced[i]!;
    const out = displayPath(cwd, t.out);
    const diff = compareOutput(t.out, p.files);
    for (const [kind, list] of Object.entries(diff) as [keyof OutputDiff, string[]][]) {
      for (const f of list) problems.push(`${join(out, f).split("\\").join("/")} (${kind})`);
    }
    results.push({ ...summary(p, out), diff });
  });
  problems.sort();
  return { ok: results.every((r) => isClean(r.diff)), targets: results, problems };
}

async function targetsOf(options: GenerateOptions, cwd: string): Promise<Target[]> {
  return resolveTargets(options, options.bundled ? undefined : await loadConfig(cwd, options.config));
}

function summary(p: Produced, out: string): TargetResult {
  return {
    schema: p.schema,
    out,
    revision: p.revision,
    files: p.files.map((f) => f.path),
    cached: p.cached,
    warnings: p.warnings,
  };
}
