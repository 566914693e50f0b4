/**
 * The manifest's `skills`: each a folder of files (`dir`, relative to the manifest) or inline
 * `files`, whose SKILL.md frontmatter names it. Read here into what the Skills extension serves
 * (https://modelcontextprotocol.io/seps/2640-skills-extension): every file with its SHA-256
 * digest and size, the frontmatter as JSON, the skill URI `skill://[<prefix>/]<name>/SKILL.md`.
 * Problems name the manifest pointer of the declaration and the skill file at fault.
 */
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import type { Diagnostic } from "./diagnostics.js";
import { FrontmatterError, readFrontmatter } from "./frontmatter.js";
import { isPlainObject } from "../json-schema/walk.js";
import { escapePointerToken } from "../json-schema/pointer.js";
import { resourceFilePaths } from "./apps.js";

type Problem = Omit<Diagnostic, "file">;

/**
 * The extension's per-skill limits: servers SHOULD NOT serve more (hosts need not load it), so a
 * manifest that declares more is refused. The client's copies are in runtime/src/limits.ts.
 */
const MAX_SKILL_FILES = 512;
const MAX_SKILL_BYTES = 16 * 1024 * 1024;
/** Agent Skills naming rule: 1-64 lowercase letters, digits and hyphens, no leading, trailing or double hyphen. */
const SKILL_NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const MAX_DESCRIPTION = 1024;
/** A `<file-path>` segment usable in a URI as is (RFC 3986 pchar without percent-encoding). */
const SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@-]+$/;
const SKILL_MD = "SKILL.md";

const MIME: Readonly<Record<string, string>> = {
  md: "text/markdown",
  markdown: "text/markdown",
  txt: "text/plain",
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  csv: "text/csv",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  xml: "application/xml",
  js: "text/javascript",
  mjs: "text/javascript",
  ts: "text/x-typescript",
  py: "text/x-python",
  sh: "text/x-shellscript",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
  zip: "application/zip",
};

export interface SkillFileModel {
  /** Below the skill root, `/`-separated. */
  path: string;
  mimeType: string;
  /** UTF-8 content; `blob` (base64) for other bytes. */
  text?: string;
  blob?: string;
  digest: string;
  size: number;
}

export interface SkillModel {
  /** JSON pointer of the declaration in the manifest. */
  pointer: string;
  /** `<skill-path>`: `[<prefix>/]<name>`. */
  path: string;
  uri: string;
  frontmatter: { name: string; description: string; [key: string]: unknown };
  /** SKILL.md first, then by path. */
  files: SkillFileModel[];
}

function mimeOf(path: string, text: boolean): string {
  const dot = path.lastIndexOf(".");
  const ext = dot < 0 ? "" : path.slice(dot + 1).toLowerCase();
  return MIME[ext] ?? (text ? "text/plain" : "application/octet-stream");
}

// The BOM is kept: the text must encode back to exactly the bytes the digest covers.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function fileModel(path: string, bytes: Uint8Array): SkillFileModel {
  let text: string | undefined;
  try {
    text = utf8.decode(bytes);
    if (text.includes("\u0000")) text = undefined;
  } catch {
    text = undefined;
  }
  const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  const base = { path, mimeType: mimeOf(path, text !== undefined), digest, size: bytes.length };
  return text !== undefined ? { ...base, text } : { ...base, blob: Buffer.from(bytes).toString("base64") };
}

/** Every file below `dir` (no symbolic links: a skill serves what is in its folder), as paths relative to it; dotfiles are left out. */
function walk(dir: string, root: string, out: string[], problems: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith(".")) continue;
    const abs = join(dir, name);
    const rel = relative(root, abs).split("\\").join("/");
    const st = lstatSync(abs);
    if (st.isSymbolicLink()) problems.push(`${rel} is a symbolic link (a skill serves only the files in its folder)`);
    else if (st.isDirectory()) walk(abs, root, out, problems);
    else if (st.isFile()) out.push(rel);
  }
}

/** The skills of a manifest; `baseDir` is the manifest's folder (where `dir` paths start). */
export function loadSkills(list: unknown, baseDir: string): { skills: SkillModel[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const skills: SkillModel[] = [];
  if (!Array.isArray(list)) return { skills, problems };
  list.forEach((decl, i) => {
    const pointer = `/skills/${i}`;
    if (!isPlainObject(decl)) return; // the schema reported it
    const error = (at: string, message: string) => problems.push({ severity: "error", pointer: at, message });
    const hasDir = typeof decl.dir === "string";
    const hasFiles = isPlainObject(decl.files);
    if (hasDir === hasFiles)
      return error(
        pointer,
        'expected either "dir" (a folder relative to the manifest) or "files" (inline content by path), not both and not neither',
      );
    let files: { path: string; bytes: Uint8Array; pointer: string }[];
    let label: string;
    let folderName: string | undefined;
    if (hasDir) {
      const at = `${pointer}/dir`;
      const abs = resolve(baseDir, decl.dir as string);
      label = decl.dir as string;
      folderName = basename(abs);
      let paths: string[] = [];
      const walkProblems: string[] = [];
      try {
        if (!lstatSync(abs).isDirectory()) return error(at, `${JSON.stringify(label)} is not a folder`);
        walk(abs, abs, paths, walkProblems);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return error(
          at,
          code === "ENOENT"
            ? `folder ${JSON.stringify(label)} not found (relative to the manifest)`
            : `cannot read folder ${JSON.stringify(label)} (${code ?? String(e)})`,
        );
      }
      for (const w of walkProblems) error(at, `${label}/${w}`);
      if (!paths.includes(SKILL_MD))
        return error(at, `no ${SKILL_MD} at the root of ${JSON.stringify(label)} (every skill has one)`);
      if (paths.length > MAX_SKILL_FILES)
        return error(
          at,
          `${JSON.stringify(label)} has ${paths.length} files; a skill may have at most ${MAX_SKILL_FILES} (Skills extension limit)`,
        );
      paths = paths.sort();
      files = paths.map((p) => ({ path: p, bytes: readFileSync(join(abs, p)), pointer: at }));
    } else {
      const at = `${pointer}/files`;
      const given = decl.files as { [path: string]: unknown };
      label = `${at}`;
      if (!Object.hasOwn(given, SKILL_MD)) return error(at, `missing "${SKILL_MD}" (every skill has one at its root)`);
      const paths = Object.keys(given).sort();
      if (paths.length > MAX_SKILL_FILES)
        return error(at, `${paths.length} files; a skill may have at most ${MAX_SKILL_FILES} (Skills extension limit)`);
      files = [];
      for (const p of paths) {
        const fp = `${at}/${escapePointerToken(p)}`;
        if (typeof given[p] !== "string") continue; // the schema reported it
        if (p.split("/").some((s) => s === "" || s === "." || s === "..")) {
          error(fp, `file path ${JSON.stringify(p)} must be relative, without empty, "." or ".." segments`);
          continue;
        }
        files.push({ path: p, bytes: new TextEncoder().encode(given[p] as string), pointer: fp });
      }
    }
    let bad = false;
    for (const f of files) {
      const seg = f.path.split("/").find((s) => !SEGMENT.test(s));
      if (seg !== undefined) {
        error(
          f.pointer,
          `${hasDir ? `${label}/${f.path}` : JSON.stringify(f.path)}: ${JSON.stringify(seg)} would need percent-encoding in a skill:// URI; rename it to letters, digits and . _ ~ -`,
        );
        bad = true;
      }
    }
    const total = files.reduce((n, f) => n + f.bytes.length, 0);
    if (total > MAX_SKILL_BYTES)
      return error(
        hasDir ? `${pointer}/dir` : `${pointer}/files`,
        `the skill's files add up to ${total} bytes; a skill may have at most ${MAX_SKILL_BYTES} (16 MiB, Skills extension limit)`,
      );
    const models = files.map((f) => fileModel(f.path, f.bytes));
    const md = models.find((f) => f.path === SKILL_MD)!;
    const mdPointer = hasDir ? `${pointer}/dir` : `${pointer}/files/${SKILL_MD}`;
    const mdLabel = hasDir ? `${label}/${SKILL_MD}` : SKILL_MD;
    if (md.text === undefined) return error(mdPointer, `${mdLabel} is not UTF-8 text`);
    let frontmatter: { [key: string]: unknown } | null;
    try {
      frontmatter = readFrontmatter(md.text);
    } catch (e) {
      if (!(e instanceof FrontmatterError)) throw e;
      return error(mdPointer, `${mdLabel}:${e.line}: invalid frontmatter: ${e.message}`);
    }
    if (frontmatter === null)
      return error(
        mdPointer,
        `${mdLabel} must begin with YAML frontmatter (a \`---\` line, \`name:\` and \`description:\`, a \`---\` line)`,
      );
    const name = frontmatter.name;
    const description = frontmatter.description;
    if (typeof name !== "string" || !SKILL_NAME.test(name)) {
      return error(
        mdPointer,
        `${mdLabel}: frontmatter "name" must be 1-64 lowercase letters, digits and hyphens, without leading, trailing or consecutive hyphens (Agent Skills naming rule); got ${JSON.stringify(name ?? null)}`,
      );
    }
    if (typeof description !== "string" || description.trim() === "" || description.length > MAX_DESCRIPTION) {
      return error(
        mdPointer,
        `${mdLabel}: frontmatter "description" must be a non-empty string of at most ${MAX_DESCRIPTION} characters; got ${description === undefined ? "none" : JSON.stringify(description).slice(0, 80)}`,
      );
    }
    if (folderName !== undefined && folderName !== name)
      return error(
        mdPointer,
        `${mdLabel}: frontmatter name ${JSON.stringify(name)} differs from its folder name ${JSON.stringify(folderName)} (Agent Skills: the name matches the folder)`,
      );
    const meta = frontmatter.metadata;
    if (isPlainObject(meta)) {
      for (const k of Object.keys(meta))
        if (k.startsWith("io.modelcontextprotocol/"))
          problems.push({
            severity: "warning",
            pointer: mdPointer,
            message: `${mdLabel}: metadata key ${JSON.stringify(k)} uses the prefix reserved for MCP extensions`,
          });
    }
    const prefix = typeof decl.prefix === "string" ? decl.prefix : undefined;
    if (bad) return;
    const path = prefix === undefined ? name : `${prefix}/${name}`;
    skills.push({
      pointer,
      path,
      uri: `skill://${path}/${SKILL_MD}`,
      frontmatter: frontmatter as SkillModel["frontmatter"],
      files: [md, ...models.filter((f) => f !== md)],
    });
  });
  const seen = new Map<string, string>();
  for (const s of skills) {
    const prior = seen.get(s.uri);
    if (prior !== undefined)
      problems.push({
        severity: "error",
        pointer: s.pointer,
        message: `skill ${s.uri} is declared twice (also at ${prior}); give one a different name or "prefix"`,
      });
    else seen.set(s.uri, s.pointer);
  }
  return { skills: problems.some((p) => p.severity === "error") ? [] : skills, problems };
}

/**
 * What the skills folders and the resources' files hold, as one digest: generation is cached by
 * its inputs, and these files are inputs as much as the manifest's bytes. Unreadable ones count as
 * such here (the generation itself reports them).
 */
export function sideFilesDigest(manifestText: string, baseDir: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(manifestText);
  } catch {
    return undefined;
  }
  const list = isPlainObject(parsed) && Array.isArray(parsed.skills) ? parsed.skills : [];
  const files = resourceFilePaths(parsed);
  if (list.length === 0 && files.length === 0) return undefined;
  const h = createHash("sha256");
  for (const f of files) {
    h.update(`file ${f}\u0000`);
    try {
      h.update(readFileSync(resolve(baseDir, f)));
    } catch {
      h.update("\u0001unreadable");
    }
  }
  for (const decl of list) {
    if (!isPlainObject(decl) || typeof decl.dir !== "string") continue;
    const abs = resolve(baseDir, decl.dir);
    const paths: string[] = [];
    try {
      walk(abs, abs, paths, []);
    } catch {
      continue;
    }
    for (const p of paths.sort()) {
      h.update(`${decl.dir}/${p}\u0000`);
      try {
        h.update(readFileSync(join(abs, p)));
      } catch {
        h.update("\u0001unreadable");
      }
    }
  }
  return h.digest("hex");
}
