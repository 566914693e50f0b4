/** `resources/read` routing: exact static URIs first, then templates in declaration order (RFC 6570 match). */
import { McpError } from "../errors.js";
import type { ReadResourceResult } from "../mcp-types.js";
import type { RequestHandlers } from "../lifecycle/common/types.js";
import { compileUriMatcher, type UriMatcher } from "../uri-match.js";
import { resourceResult } from "./results.js";
import { modernResourceHandlers, type ModernRun, type ResourceCore } from "./modern-resources.js";
import type { Params } from "../session/types.js";
import type { CacheHint } from "../lifecycle/modern/results.js";
import type {
  HandlerContext,
  McpDefinition,
  McpServerHandlers,
  MemberTables,
  PublishedLists,
  ResourceHandler,
  ServerSkills,
  TemplateHandler,
} from "./types.js";

interface StaticRoute {
  readonly handler: ResourceHandler;
  readonly mimeType: unknown;
}
export interface TemplateRoute {
  readonly name: string;
  readonly member: string;
  readonly template: UriMatcher;
  readonly handler: TemplateHandler;
  readonly mimeType: unknown;
}

export class ResourceRouter {
  private readonly statics = new Map<string, StaticRoute>();
  readonly templates: TemplateRoute[] = [];
  /** Where a URI no static resource or template serves is looked up last (the skills' files). */
  fallback: ((uri: string) => ReadResourceResult | undefined) | undefined;
  #skillsLoading: Promise<void> | undefined;

  /** Load the manifest's skills into `core` once (a failed load is tried again); their files are read after the manifest's own resources. */
  loadSkills(core: { skills: ServerSkills | undefined }, load: () => Promise<ServerSkills>): Promise<void> {
    return (this.#skillsLoading ??= load().then(
      (skills) => {
        this.fallback = skills.read;
        core.skills = skills;
      },
      (e: unknown) => {
        this.#skillsLoading = undefined;
        throw e;
      },
    ));
  }

  /**
   * Route the resources and templates of `lists` to their handlers (core.ts); each without one is
   * added to `missing`, as `resources.<member>`.
   */
  index(
    lists: PublishedLists,
    members: MemberTables,
    handlers: McpServerHandlers["resources"],
    missing: string[],
  ): void {
    for (const resource of lists.resources) {
      const member = members.resources[resource.name as string] ?? "";
      const handler = handlers?.[member];
      if (handler === undefined) missing.push(`resources.${member || String(resource.name)}`);
      else
        this.statics.set(resource.uri as string, { handler: handler as ResourceHandler, mimeType: resource.mimeType });
    }
    for (const t of lists.resourceTemplates) {
      const name = t.name as string;
      const member = members.resourceTemplates[name] ?? "";
      const handler = handlers?.[member];
      if (handler === undefined) missing.push(`resources.${member || name}`);
      else
        this.templates.push({
          name,
          member,
          template: compileUriMatcher(t.uriTemplate as string),
          handler: handler as TemplateHandler,
          mimeType: t.mimeType,
        });
    }
  }

  /** Add the 2026-07-28 `resources/*` handlers reading through this router to `h` (modern.ts). */
  serveModern(h: RequestHandlers, core: ResourceCore, run: ModernRun): void {
    modernResourceHandlers(this, h, core, run);
  }

  /** Caching hint of a 2026-07-28 `resources/read` result: the manifest's `cache` of its resource or template, else private and not cached. */
  cacheHint(cache: McpDefinition["cache"], params: Params | undefined): CacheHint {
    const uri = String(params?.uri);
    let s = cache?.resources?.[uri];
    if (s === undefined && cache?.resourceTemplates !== undefined) {
      const t = this.templates.find((x) => x.template.match(uri) !== null);
      if (t !== undefined) s = cache.resourceTemplates[t.name];
    }
    return { ttlMs: s?.ttlMs ?? 0, cacheScope: s?.scope ?? "private" };
  }

  templateFor(uriTemplate: string): TemplateRoute | undefined {
    return this.templates.find((t) => t.template.template === uriTemplate);
  }

  async read(uri: string, ctx: HandlerContext): Promise<ReadResourceResult> {
    const route = this.statics.get(uri);
    if (route !== undefined) return resourceResult(await route.handler(ctx), uri, route.mimeType);
    for (const t of this.templates) {
      const vars = t.template.match(uri);
      if (vars === null) continue;
      const handler = t.handler as (vars: unknown, ctx: HandlerContext) => unknown;
      return resourceResult(await handler(vars, ctx), uri, t.mimeType);
    }
    const other = this.fallback?.(uri);
    if (other !== undefined) return other;
    // -32002 is the legacy revisions' "resource not found" (2026-07-28 moves it to -32602).
    throw new McpError(-32002, `Resource not found: ${uri}`, { uri });
  }
}
