/**
 * `completion/complete` (https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/completion):
 * the user's completer of a prompt argument or a template variable. A server feature (features.ts):
 * the generated server hands it over only when its manifest declares completions.
 */
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import { describe, ownValue } from "../describe.js";
import type { Params } from "../session/types.js";
import type { CompleteResult } from "../mcp-types.js";
import type { ResourceRouter } from "./resources.js";
import type { Completer, CompletionContext, HandlerContext, McpServerHandlers } from "./types.js";

const MAX_COMPLETIONS = 100;

/** What completion reads of the server core (core.ts). */
export interface Completable {
  readonly handlers: McpServerHandlers;
  /** Undefined on a server given no prompts (core.ts). */
  readonly prompts: { get(name: string): { readonly member: string } | undefined } | undefined;
  readonly router: ResourceRouter | undefined;
}

export async function complete(core: Completable, p: Params, ctx: HandlerContext): Promise<CompleteResult> {
  const ref = p.ref as { type?: string; name?: string; uri?: string };
  const argument = p.argument as { name: string; value: string };
  const completions = core.handlers.completions;
  let completer: Completer | undefined;
  if (ref.type === "ref/prompt") {
    const prompt = core.prompts?.get(ref.name ?? "");
    if (prompt === undefined)
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: unknown prompt ${describe(ref.name)}`);
    completer = ownValue(ownValue(completions?.prompts, prompt.member), argument.name);
  } else {
    const t = core.router?.templateFor(ref.uri ?? "");
    if (t === undefined)
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: no resource template ${describe(ref.uri)}`);
    completer = ownValue(ownValue(completions?.resources, t.member), argument.name);
  }
  if (completer === undefined) return { completion: { values: [] } };
  const context = p.context as { arguments?: { [name: string]: string } } | undefined;
  // The context's accessors live on its prototype, so extend it rather than spreading it.
  const cctx: CompletionContext = Object.create(ctx, {
    arguments: { value: context?.arguments ?? {}, enumerable: true },
  });
  const got = await completer(argument.value, cctx);
  const completion = Array.isArray(got) ? { values: got } : { ...got };
  if (completion.values.length > MAX_COMPLETIONS) {
    completion.total ??= completion.values.length;
    completion.values = completion.values.slice(0, MAX_COMPLETIONS);
    completion.hasMore = true;
  }
  return { completion };
}
