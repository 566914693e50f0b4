/**
 * The two manifests `mcpgen breaking` compares, and the config's ignore list. The earlier
 * manifest is a file or a git object (`<ref>:<path>`, read with `git show`); both go through
 * the manifest loader, so a broken one fails with the same diagnostics as `generate`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { McpgenError, pointer } from "../../errors.js";
import { parseJson } from "../../load/json.js";
import { parseManifest } from "../../load/manifest.js";
import { buildServerModel } from "../../model/build-server.js";
import type { ServerModel } from "../../model/server-ir.js";
import { configFileName } from "../../config.js";

/** A manifest over this size is not a manifest (bounds what `git show` may hand us). */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;
const GIT_TIMEOUT_MS = 30_000;

export interface IgnoreEntry {
  rule: string;
  /** `tools/<name>`, `prompts/<name>`, `resources/<uri>`, `resourceTemplates/<name>`, or `*`. */
  entry: string;
  reason: string;
}

export interface BreakingConfig {
  /** The config file as named in messages, or null when there is none. */
  file: string | null;
  manifest: string | null;
  ignore: IgnoreEntry[];
}

export function readManifestModel(text: string, display: string): ServerModel {
  // What clients see of the contract is in the manifest itself; the files it names are not read.
  return buildServerModel(parseManifest(text, display, { readFiles: false }));
}

/** `against`: an existing file, else `<git ref>:<path>` (git resolves the path from the repository root; `./x` from cwd). */
export function readAgainst(against: string, cwd: string): { text: string; display: string } {
  const abs = resolve(cwd, against);
  if (existsSync(abs)) return { text: readFileSync(abs, "utf8"), display: against };
  const colon = against.indexOf(":");
  if (colon <= 0 || colon === against.length - 1) {
    throw new McpgenError("file not found, and not a <git-ref>:<path> either", {
      file: against,
      expected: "a manifest file or e.g. main:mcp.manifest.json",
    });
  }
  try {
    const text = execFileSync("git", ["show", against], {
      cwd,
      encoding: "utf8",
      maxBuffer: MAX_MANIFEST_BYTES,
      timeout: GIT_TIMEOUT_MS,
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { text, display: against };
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    const why = (err.stderr ?? "").trim().split("\n")[0] || err.message;
    throw new McpgenError(`cannot read from git: ${why}`, {
      file: against,
      expected: "<git ref>:<path of a manifest in that revision>",
    });
  }
}

export function readBreakingConfig(cwd: string, option: string | undefined): BreakingConfig {
  const path = resolve(cwd, option ?? configFileName);
  const display = option ?? configFileName;
  if (!existsSync(path)) {
    if (option !== undefined) throw new McpgenError("config file not found", { file: display });
    return { file: null, manifest: null, ignore: [] };
  }
  const raw = parseJson(readFileSync(path, "utf8"), display);
  const bad = (ptr: string, expected: string): never => {
    throw new McpgenError("invalid config", { file: display, pointer: ptr, expected });
  };
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (!isObj(raw)) return bad("", "an object");
  const manifest = typeof raw.manifest === "string" ? raw.manifest : null;
  const section = raw.breaking;
  if (section === undefined) return { file: display, manifest, ignore: [] };
  if (!isObj(section)) return bad("/breaking", 'an object {"ignore": [...]}');
  for (const k of Object.keys(section)) if (k !== "ignore") bad(pointer("breaking", k), 'only "ignore"');
  const list = section.ignore ?? [];
  if (!Array.isArray(list)) return bad("/breaking/ignore", "an array of {rule, entry, reason}");
  const ignore = list.map((item, i): IgnoreEntry => {
    const at = (k?: string) =>
      k ? pointer("breaking", "ignore", String(i), k) : pointer("breaking", "ignore", String(i));
    if (!isObj(item)) return bad(at(), "an object {rule, entry, reason}");
    for (const k of Object.keys(item))
      if (k !== "rule" && k !== "entry" && k !== "reason") bad(at(k), 'only "rule", "entry", "reason"');
    for (const k of ["rule", "entry", "reason"] as const) {
      if (typeof item[k] !== "string" || (item[k] as string).trim() === "")
        bad(at(k), k === "reason" ? "a non-empty reason (why this break is acceptable)" : "a non-empty string");
    }
    return { rule: item.rule as string, entry: item.entry as string, reason: item.reason as string };
  });
  return { file: display, manifest, ignore };
}
