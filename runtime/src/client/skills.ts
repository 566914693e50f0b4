/**
 * The Skills extension on the client (https://modelcontextprotocol.io/seps/2640-skills-extension):
 * `skills/list` (every page), `skills/get`, `resources/directory/read`, and reads of a skill's
 * files verified against its entry (listed, same size, same sha256 digest), so unverified bytes
 * never reach the caller. Entries come from the peer: each is checked for shape and for the
 * extension's per-skill limits before it is handed out.
 */
import { describe } from "../describe.js";
import { McpError } from "../errors.js";
import { ErrorCode } from "../jsonrpc.js";
import { MAX_SKILL_BYTES, MAX_SKILL_FILES, MAX_SKILL_PAGES as MAX_PAGES } from "../limits.js";
import { SKILLS_EXTENSION } from "../lifecycle/common/skills-methods.js";
import type { ResourceContents } from "../mcp-types.js";
import type { RequestOptions } from "../session/types.js";
import type { McpClient } from "./client.js";
import { fromBase64 } from "../bytes.js";

/** One file of a skill as its entry lists it. */
export interface SkillResource {
  readonly uri: string;
  /** `sha256:` and 64 lowercase hex digits of the raw bytes. */
  readonly digest: string;
  readonly size: number;
}

/** A skill entry (`skills/list`, `skills/get`). */
export interface Skill {
  /** URI of the skill's SKILL.md. */
  readonly uri: string;
  /** The SKILL.md frontmatter as JSON. */
  readonly frontmatter: { readonly name: string; readonly description: string; readonly [key: string]: unknown };
  /** Every file, or "dynamic" (generated content: no digests, nothing to verify against). */
  readonly resources: readonly SkillResource[] | "dynamic";
}

/** A skill file, as read: its bytes matched the entry (`verified`), unless the skill is "dynamic". */
export interface SkillFile {
  readonly uri: string;
  readonly mimeType: string | undefined;
  readonly bytes: Uint8Array;
  /** The content as UTF-8 text (text contents as sent; blobs decoded). */
  readonly text: string;
  readonly verified: boolean;
}

/** A skill entry or a skill file that is not what the extension allows or what its entry says. */
export class SkillVerificationError extends Error {
  override name = "SkillVerificationError";
  constructor(
    readonly uri: string,
    message: string,
  ) {
    super(`${uri}: ${message}`);
  }
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

function isObject(v: unknown): v is { [key: string]: unknown } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The entry as the extension defines it, within its limits; else SkillVerificationError. */
function checkEntry(v: unknown): Skill {
  if (!isObject(v) || typeof v.uri !== "string")
    throw new SkillVerificationError(describe(isObject(v) ? v.uri : v), "not a skill entry (no uri)");
  const uri = v.uri;
  const fm = v.frontmatter;
  if (!isObject(fm) || typeof fm.name !== "string" || typeof fm.description !== "string")
    throw new SkillVerificationError(uri, "frontmatter must be an object with string name and description");
  const segments = uri.split("/");
  if (segments[segments.length - 1] !== "SKILL.md" || segments[segments.length - 2] !== fm.name)
    throw new SkillVerificationError(uri, `the URI must end in /${fm.name}/SKILL.md (its frontmatter name)`);
  const resources = v.resources;
  if (resources === "dynamic") return v as unknown as Skill;
  if (!Array.isArray(resources)) throw new SkillVerificationError(uri, 'resources must be an array or "dynamic"');
  if (resources.length > MAX_SKILL_FILES)
    throw new SkillVerificationError(
      uri,
      `${resources.length} files, more than the ${MAX_SKILL_FILES} a skill may have`,
    );
  const root = uri.slice(0, -"SKILL.md".length);
  let total = 0;
  for (const r of resources) {
    if (
      !isObject(r) ||
      typeof r.uri !== "string" ||
      typeof r.digest !== "string" ||
      !DIGEST.test(r.digest) ||
      !Number.isSafeInteger(r.size) ||
      (r.size as number) < 0
    ) {
      throw new SkillVerificationError(
        uri,
        `malformed resources entry ${describe(isObject(r) ? r.uri : r)} (uri, sha256 digest and size expected)`,
      );
    }
    if (!r.uri.startsWith(root))
      throw new SkillVerificationError(uri, `file ${describe(r.uri)} lies outside the skill`);
    total += r.size as number;
  }
  if (total > MAX_SKILL_BYTES)
    throw new SkillVerificationError(uri, `${total} bytes of files, more than the ${MAX_SKILL_BYTES} a skill may have`);
  if (!resources.some((r) => (r as SkillResource).uri === uri))
    throw new SkillVerificationError(uri, "resources does not list SKILL.md itself");
  return v as unknown as Skill;
}

function bytesOf(c: ResourceContents): Uint8Array {
  if ("text" in c && typeof c.text === "string") return new TextEncoder().encode(c.text);
  if ("blob" in c && typeof c.blob === "string") return fromBase64(c.blob);
  return new Uint8Array(0);
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes));
  let hex = "";
  for (const b of hash) hex += b.toString(16).padStart(2, "0");
  return `sha256:${hex}`;
}

/** `Uri`: the SKILL.md URIs the generated client knows (its manifest's skills), offered for completion; any other is accepted too. */
export class SkillsClient<Uri extends string = string> {
  constructor(private readonly client: McpClient) {}

  /** The server declares the extension (skills/list and skills/get exist). */
  get declared(): boolean {
    return this.settings() !== undefined;
  }

  private settings(): { [key: string]: unknown } | undefined {
    const ext = (this.client.serverCapabilities as { extensions?: unknown }).extensions;
    const s = isObject(ext) ? ext[SKILLS_EXTENSION] : undefined;
    return isObject(s) ? s : undefined;
  }

  private declaredFor(method: string): void {
    if (this.settings() === undefined)
      throw new McpError(
        ErrorCode.MethodNotFound,
        `Cannot send ${method}: the server does not declare the ${SKILLS_EXTENSION} extension`,
      );
  }

  /** Every skill the server lists (all pages); an entry the extension does not allow rejects with SkillVerificationError. */
  async list(options?: RequestOptions): Promise<Skill[]> {
    this.declaredFor("skills/list");
    const out: Skill[] = [];
    let cursor: string | undefined;
    const seen = new Set<string>();
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const r: unknown = await this.client.session.request(
        "skills/list",
        cursor === undefined ? {} : { cursor },
        options,
      );
      if (!isObject(r) || !Array.isArray(r.skills))
        throw new McpError(ErrorCode.InternalError, "skills/list: the result has no skills array");
      for (const s of r.skills) out.push(checkEntry(s));
      if (typeof r.nextCursor !== "string") return out;
      if (seen.has(r.nextCursor))
        throw new McpError(
          ErrorCode.InternalError,
          `skills/list: the server repeated cursor ${describe(r.nextCursor)}`,
        );
      seen.add(r.nextCursor);
      cursor = r.nextCursor;
    }
    throw new McpError(ErrorCode.InternalError, `skills/list: more than ${MAX_PAGES} pages`);
  }

  /** The entry of the skill whose SKILL.md is at `uri` (an unknown skill rejects with the server's -32602). */
  async get(uri: Uri | (string & {}), options?: RequestOptions): Promise<Skill> {
    this.declaredFor("skills/get");
    const r: unknown = await this.client.session.request("skills/get", { uri }, options);
    const skill = checkEntry(isObject(r) ? r.skill : r);
    if (skill.uri !== uri) throw new SkillVerificationError(uri, `skills/get answered for ${describe(skill.uri)}`);
    return skill;
  }

  /**
   * A file of `skill` (default its SKILL.md), read and checked against the entry: a file the entry
   * does not list, a size or a digest that differs, rejects with SkillVerificationError.
   */
  async read(skill: Skill, uri: string = skill.uri, options?: RequestOptions): Promise<SkillFile> {
    const listed = skill.resources === "dynamic" ? undefined : skill.resources.find((r) => r.uri === uri);
    if (skill.resources !== "dynamic" && listed === undefined)
      throw new SkillVerificationError(uri, `not a file of skill ${skill.uri}`);
    const result = await this.client.readResource(uri, options);
    const contents = result.contents.find((c) => c.uri === uri) ?? result.contents[0];
    if (contents === undefined) throw new SkillVerificationError(uri, "resources/read returned no contents");
    const bytes = bytesOf(contents);
    if (listed !== undefined) {
      if (bytes.length !== listed.size)
        throw new SkillVerificationError(uri, `${bytes.length} bytes read, the entry says ${listed.size}`);
      const digest = await sha256(bytes);
      if (digest !== listed.digest)
        throw new SkillVerificationError(uri, `content digest ${digest} differs from the entry's ${listed.digest}`);
    }
    const text =
      "text" in contents && typeof contents.text === "string" ? contents.text : new TextDecoder().decode(bytes);
    return { uri, mimeType: contents.mimeType, bytes, text, verified: listed !== undefined };
  }

  /** The direct children of a directory resource (all pages); the server must declare `directoryRead`. */
  async readDirectory(
    uri: string,
    options?: RequestOptions,
  ): Promise<{ uri: string; name: string; mimeType?: string; [key: string]: unknown }[]> {
    if (this.settings()?.directoryRead !== true)
      throw new McpError(
        ErrorCode.MethodNotFound,
        `Cannot send resources/directory/read: the server does not declare ${SKILLS_EXTENSION} directoryRead`,
      );
    const out: { uri: string; name: string; [key: string]: unknown }[] = [];
    let cursor: string | undefined;
    const seen = new Set<string>();
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const r: unknown = await this.client.session.request(
        "resources/directory/read",
        cursor === undefined ? { uri } : { uri, cursor },
        options,
      );
      if (!isObject(r) || !Array.isArray(r.resources))
        throw new McpError(ErrorCode.InternalError, "resources/directory/read: the result has no resources array");
      for (const c of r.resources)
        if (isObject(c) && typeof c.uri === "string") out.push(c as { uri: string; name: string });
      if (typeof r.nextCursor !== "string") return out;
      if (seen.has(r.nextCursor))
        throw new McpError(
          ErrorCode.InternalError,
          `resources/directory/read: the server repeated cursor ${describe(r.nextCursor)}`,
        );
      seen.add(r.nextCursor);
      cursor = r.nextCursor;
    }
    throw new McpError(ErrorCode.InternalError, `resources/directory/read: more than ${MAX_PAGES} pages`);
  }
}
