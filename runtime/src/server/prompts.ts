/**
 * The manifest's prompts, a server feature (features.ts): each prompt's handler and required
 * arguments, and the 2026-07-28 `prompts/*` handlers (the legacy ones are legacy.ts'). The
 * generated server hands it over when its manifest declares prompts, so a server without prompts
 * carries none of it.
 */
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import type { Params, RequestContext, Result } from "../session/types.js";
import type { RequestHandlers } from "../lifecycle/common/types.js";
import { requestRevision as revisionOf } from "../lifecycle/modern/meta.js";
import type { ModernRun } from "./modern-resources.js";
import { page } from "./pagination.js";
import { promptResult } from "./results.js";
import type { HandlerContext, McpServerHandlers, MemberTables, PromptHandler, PublishedLists } from "./types.js";

export interface PromptEntry {
  readonly member: string;
  readonly handler: PromptHandler;
  readonly required: readonly string[];
}

export class PromptTable {
  private readonly entries = new Map<string, PromptEntry>();

  get(name: string): PromptEntry | undefined {
    return this.entries.get(name);
  }

  /** Pair the prompts of `lists` with their handlers (core.ts); each without one is added to `missing`. */
  index(lists: PublishedLists, members: MemberTables, handlers: McpServerHandlers["prompts"], missing: string[]): void {
    for (const prompt of lists.prompts) {
      const name = prompt.name as string;
      const member = members.prompts[name] ?? "";
      const handler = handlers?.[member];
      const args = (prompt.arguments ?? []) as { name: string; required?: boolean }[];
      if (handler === undefined) missing.push(`prompts.${member || name}`);
      else
        this.entries.set(name, {
          member,
          handler,
          required: args.filter((a) => a.required === true).map((a) => a.name),
        });
    }
  }

  /** Add the 2026-07-28 `prompts/list` and `prompts/get` to `h` (modern.ts). */
  serveModern(
    h: RequestHandlers,
    core: { readonly pageSize: number; lists(revision: string): PublishedLists },
    run: ModernRun,
  ): void {
    const size = core.pageSize;
    h["prompts/list"] = (p: Params) => page("prompts", core.lists(revisionOf(p)).prompts, p?.cursor, size);
    h["prompts/get"] = (p: Params, rc: RequestContext) => {
      const prompt = this.entries.get(p.name as string);
      if (prompt === undefined)
        throw new McpError(ErrorCode.InvalidParams, `Invalid params: unknown prompt ${JSON.stringify(p.name)}`);
      const args = (p.arguments ?? {}) as { [name: string]: string };
      const absent = prompt.required.filter((a) => typeof args[a] !== "string");
      if (absent.length > 0) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid params: prompt ${JSON.stringify(p.name)} requires argument${absent.length > 1 ? "s" : ""} ${absent.map((a) => JSON.stringify(a)).join(", ")}`,
        );
      }
      return run(
        "prompts/get",
        p,
        rc,
        async (ctx) =>
          promptResult(
            await (prompt.handler as (a: unknown, c: HandlerContext) => unknown)(args, ctx),
          ) as unknown as Result,
      );
    };
  }
}
