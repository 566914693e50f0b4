/** `resources/read` routing: exact static URIs first, then templates in declaration order (RFC 6570 match). */
import { McpError } from "../errors.js";
import type { ReadResourceResult } from "../mcp-types.js";
import { compileUriMatcher, type UriMatcher } from "../uri-match.js";
import { resourceResult } from "./results.js";
import type { HandlerContext, ResourceHandler, TemplateHandler } from "./types.js";

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

  addStatic(uri: string, handler: ResourceHandler, mimeType: unknown): void {
    this.statics.set(uri, { handler, mimeType });
  }

  addTemplate(name: string, member: string, uriTemplate: string, handler: TemplateHandler, mimeType: unknown): void {
    this.templates.push({ name, member, template: compileUriMatcher(uriTemplate), handler, mimeType });
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
