/**
 * The 2026-07-28 `resources/*` handlers of a server (modern.ts), reached through the resources
 * feature (ResourceRouter.serveModern, features.ts): a server given no resources carries none.
 */
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import type { ReadResourceResult } from "../mcp-types.js";
import type { Params, RequestContext, Result } from "../session/types.js";
import type { RequestHandlers } from "../lifecycle/common/types.js";
import { requestRevision as revisionOf } from "../lifecycle/modern/meta.js";
import type { ModernContext } from "./modern-context.js";
import { page } from "./pagination.js";
import { listedResources } from "./listed-resources.js";
import type { HandlerContext, PublishedLists, ServerSkills } from "./types.js";

/** What the handlers read of the server core (core.ts). */
export interface ResourceCore {
  readonly pageSize: number;
  lists(revision: string): PublishedLists;
  readonly skills: ServerSkills | undefined;
}

/** How a 2026-07-28 handler runs its body: with input rounds when the server asks for input (modern.ts). */
export type ModernRun = (
  method: string,
  params: Params,
  rc: RequestContext,
  body: (ctx: ModernContext) => Promise<Result>,
) => Result | Promise<Result>;

/** Add `resources/list`, `resources/templates/list` and `resources/read` (read through `router`) to `h`. */
export function modernResourceHandlers(
  router: { read(uri: string, ctx: HandlerContext): Promise<ReadResourceResult> },
  h: RequestHandlers,
  core: ResourceCore,
  run: ModernRun,
): void {
  const size = core.pageSize;
  h["resources/list"] = (p: Params) => page("resources", listedResources(core, revisionOf(p)), p?.cursor, size);
  h["resources/templates/list"] = (p: Params) =>
    page("resourceTemplates", core.lists(revisionOf(p)).resourceTemplates, p?.cursor, size);
  h["resources/read"] = (p: Params, rc: RequestContext) =>
    run("resources/read", p, rc, async (ctx) => {
      try {
        return (await router.read(p.uri as string, ctx)) as unknown as Result;
      } catch (e) {
        // 2026-07-28: a missing resource is invalid params, never -32002
        // (https://modelcontextprotocol.io/specification/2026-07-28/server/resources#error-handling).
        if (e instanceof McpError && e.code === ErrorCode.ResourceNotFound)
          throw new McpError(ErrorCode.InvalidParams, e.message, { uri: p.uri });
        throw e;
      }
    });
}
