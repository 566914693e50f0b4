/**
 * The Skills extension (`io.modelcontextprotocol/skills`) as a generated server serves it: the
 * manifest's skills, embedded by the generator with each file's digest and size, answered as
 * `skills/list` (paginated), `skills/get`, `resources/directory/read`, and `resources/read` of
 * every `skill://` file. Loaded only by servers whose manifest declares skills (definition.skills).
 * https://modelcontextprotocol.io/seps/2640-skills-extension
 */
import type { ProtocolBinding } from "../abi.js";
import { describe } from "../describe.js";
import { McpError } from "../errors.js";
import { ErrorCode } from "../jsonrpc.js";
import { withSkillMethods } from "../lifecycle/common/skills-methods.js";
import type { ReadResourceResult, ResourceContents } from "../mcp-types.js";
import type { Params, Result } from "../session/types.js";
import { page } from "./pagination.js";
import type { ServerSkills, SkillSource } from "./types.js";

const DIRECTORY = "inode/directory";
const SKILL_MD = "SKILL.md";

interface Entry {
  readonly uri: string;
  readonly frontmatter: { readonly [key: string]: unknown };
  readonly resources: readonly { uri: string; digest: string; size: number }[];
}

function invalid(message: string, uri: unknown): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid params: ${message}`, { uri });
}

class SkillCatalog implements ServerSkills {
  private readonly resources: readonly Result[];
  private readonly entries: Entry[] = [];
  private readonly byUri = new Map<string, Entry>();
  private readonly files = new Map<string, ResourceContents>();
  /** Every directory level of every skill: its direct children (files and subdirectories) by URI. */
  private readonly dirs = new Map<string, Map<string, Result>>();
  private readonly children = new Map<string, readonly Result[]>();
  private readonly lists = new WeakMap<readonly unknown[], readonly unknown[]>();
  private served: { legacy: readonly ProtocolBinding[]; modern: readonly ProtocolBinding[] } | undefined;

  constructor(sources: readonly SkillSource[]) {
    const resources: Result[] = [];
    for (const s of sources) {
      const root = `skill://${s.path}`;
      const uri = `${root}/${SKILL_MD}`;
      const entry: Entry = {
        uri,
        frontmatter: s.frontmatter,
        resources: s.files.map((f) => ({ uri: `${root}/${f.path}`, digest: f.digest, size: f.size })),
      };
      this.entries.push(entry);
      this.byUri.set(uri, entry);
      for (const f of s.files) {
        const fileUri = `${root}/${f.path}`;
        const contents: ResourceContents =
          f.blob !== undefined
            ? { uri: fileUri, mimeType: f.mimeType, blob: f.blob }
            : { uri: fileUri, mimeType: f.mimeType, text: f.text ?? "" };
        this.files.set(fileUri, contents);
        this.addToDirectories(root, f.path, {
          uri: fileUri,
          name: f.path.slice(f.path.lastIndexOf("/") + 1),
          mimeType: f.mimeType,
          size: f.size,
        });
      }
      const fm = s.frontmatter;
      resources.push({
        uri,
        name: String(fm.name),
        description: String(fm.description),
        mimeType: "text/markdown",
        size: s.files.find((f) => f.path === SKILL_MD)?.size ?? 0,
      });
    }
    this.resources = resources;
  }

  /** Every directory level of a skill file is a directory resource, the skill root included. */
  private addToDirectories(root: string, path: string, file: Result): void {
    const parts = path.split("/");
    let dir = root;
    for (let i = 0; i < parts.length - 1; i++) {
      const child = `${dir}/${parts[i]}`;
      this.dirOf(dir).set(child, { uri: child, name: parts[i]!, mimeType: DIRECTORY });
      dir = child;
    }
    this.dirOf(dir).set(file.uri as string, file);
  }

  private dirOf(uri: string): Map<string, Result> {
    let d = this.dirs.get(uri);
    if (d === undefined) this.dirs.set(uri, (d = new Map()));
    return d;
  }

  list(params: Params | undefined, pageSize: number): Result {
    return page("skills", this.entries, params?.cursor, pageSize);
  }

  get(params: Params): Result {
    const uri = params.uri;
    const entry = typeof uri === "string" ? this.byUri.get(uri) : undefined;
    if (entry === undefined) throw invalid(`no skill is served at ${describe(uri)}`, uri);
    return { skill: entry };
  }

  readDirectory(params: Params, pageSize: number): Result {
    const uri = params.uri;
    const dir = typeof uri === "string" ? this.dirs.get(uri) : undefined;
    if (dir === undefined) throw invalid(`${describe(uri)} is not a directory resource`, uri);
    let children = this.children.get(uri as string);
    if (children === undefined) this.children.set(uri as string, (children = [...dir.values()]));
    return page("resources", children, params.cursor, pageSize);
  }

  readonly read = (uri: string): ReadResourceResult | undefined => {
    const contents = this.files.get(uri);
    return contents === undefined ? undefined : { contents: [contents] };
  };

  handlers(
    pageSize: number,
    cache?: { ttlMs: number; cacheScope: string },
  ): { [method: string]: (params: Params) => Result } {
    // ListSkillsResult and GetSkillResult extend CacheableResult in 2026-07-28.
    const cached = cache === undefined ? (r: Result) => r : (r: Result) => Object.assign(r, cache);
    return {
      "skills/list": (p) => cached(this.list(p, pageSize)),
      "skills/get": (p) => cached(this.get(p)),
      "resources/directory/read": (p) => this.readDirectory(p, pageSize),
    };
  }

  listed(own: readonly unknown[]): readonly unknown[] {
    let all = this.lists.get(own);
    if (all === undefined) this.lists.set(own, (all = [...own, ...this.resources]));
    return all;
  }

  bindings(served: { legacy: readonly ProtocolBinding[]; modern: readonly ProtocolBinding[] }) {
    return (this.served ??= {
      legacy: served.legacy.map(withSkillMethods),
      modern: served.modern.map(withSkillMethods),
    });
  }
}

/** The catalog of a generated server's skills (what `definition.skills` resolves to). */
export function serveSkills(sources: readonly SkillSource[]): ServerSkills {
  return new SkillCatalog(sources);
}
