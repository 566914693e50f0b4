/**
 * The 2026-07-28 request handlers of an McpServer: the same tools, prompts, resources and
 * completions as the legacy table, run with a per-request context (identity and log level from
 * `_meta`), input requests as InputRequiredResult rounds, `Mcp-Param-*` headers checked against
 * the tool's `x-mcp-header` arguments, and "resource not found" as -32602 with `data.uri`.
 */
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import type { Params, RequestContext, Result } from "../session/types.js";
import { hasCapability } from "../lifecycle/common/capabilities.js";
import type { Capabilities, RequestHandlers } from "../lifecycle/common/types.js";
import { identityOf, requestRevision as revisionOf } from "../lifecycle/modern/meta.js";
import { INPUT_METHODS, inputRequired, retryInput, type RetryInput } from "../lifecycle/modern/mrtr.js";
import type { RequestStateCodec } from "../lifecycle/modern/request-state.js";
import { checkHeaderParams, type ToolHeaders } from "./header-params.js";
import { ModernContext } from "./modern-context.js";
import { page } from "./pagination.js";
import { promptResult } from "./results.js";
import type { ResourceRouter } from "./resources.js";
import { runTool, type ToolEntry } from "./tools.js";
import { checkScopes } from "./scopes.js";
import type { HandlerContext, McpDefinition, PromptHandler, PublishedLists, ServerModernTasks } from "./types.js";
import type { TaskSupport } from "../tasks/modern.js";
import { declaresTasks, missingExtension } from "../tasks/extension.js";

/** What the modern table needs from its McpServer. */
export interface ServerCore {
  readonly capabilities: Capabilities;
  readonly pageSize: number;
  readonly tools: ReadonlyMap<string, ToolEntry>;
  /** What must load before a tools/call runs (the tool validators); undefined once loaded. */
  toolsReady(): Promise<void> | undefined;
  readonly prompts: ReadonlyMap<string, { readonly handler: PromptHandler; readonly required: readonly string[] }>;
  readonly router: ResourceRouter;
  readonly codec: RequestStateCodec;
  readonly definition: Pick<McpDefinition, "toolScopes">;
  lists(revision: string): PublishedLists;
  /** `Mcp-Param-*` mirrors of a tool's arguments in `revision`. */
  toolHeaders(revision: string, tool: string): ToolHeaders;
  complete(params: Params, ctx: HandlerContext): Promise<Result>;
  /** The tasks extension, when some tool declares `execution.taskSupport`. */
  readonly tasks: ServerModernTasks | undefined;
  /** A tool's `execution.taskSupport` in `revision`. */
  taskSupport(revision: string, tool: string): TaskSupport;
  report(e: Error): void;
}

/** Not a retry, no input allowed: nothing answered. */
const NO_INPUT: RetryInput = Object.freeze({ answers: Object.freeze({}), opened: undefined });

/** A cancelled retry gives its requestState back, so the client may send it again. */
function release(core: ServerCore, retry: RetryInput, rc: RequestContext): void {
  if (retry.opened !== undefined && rc.cancelled) core.codec.release(retry.opened);
}

/**
 * Run `body` with a context whose client calls are input requests: the complete result, or the
 * InputRequiredResult of a run that asked for input it was not given; synchronous if `body` is.
 */
function withInput<A = undefined, B = undefined>(
  core: ServerCore,
  method: string,
  params: Params | undefined,
  rc: RequestContext,
  // `a` and `b` are handed to `body`, so a hot caller needs no closure per call.
  body: (ctx: ModernContext, a: A, b: B) => Result | Promise<Result>,
  a?: A,
  b?: B,
): Result | Promise<Result> {
  const allowed = INPUT_METHODS.has(method);
  const retry = allowed ? retryInput(core.codec, method, params) : NO_INPUT;
  // The identity and the input round are made only if the run reads them.
  const ctx = new ModernContext(rc, undefined, undefined, retry.answers, allowed, method);
  let run: Result | Promise<Result>;
  try {
    run = body(ctx, a as A, b as B);
  } catch (e) {
    release(core, retry, rc);
    throw e;
  }
  if (run === null || typeof run !== "object" || typeof run.then !== "function") {
    if (!ctx.isBlocked) return run;
    run = Promise.resolve(run);
  }
  const running = run as Promise<Result>;
  const round = ctx.round;
  return new Promise<Result>((resolve, reject) => {
    let settled = false;
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      release(core, retry, rc);
      reject(e);
    };
    const blocked = (round.onblocked = () => {
      if (settled) return;
      settled = true;
      ctx.abandon();
      try {
        resolve(inputRequired(core.codec, method, params, round));
      } catch (e) {
        reject(e);
      }
    });
    running.then(
      (result) => {
        if (round.isBlocked) return blocked();
        if (!settled) {
          settled = true;
          resolve(result);
        }
      },
      // An error the run raised itself (e.g. -32021, a bad answer) wins over a pending round.
      (e: unknown) => (e instanceof McpError || !round.isBlocked ? fail(e) : blocked()),
    );
  });
}

/**
 * Methods of this table whose every result is a new object made for that response alone:
 * tools/call answers runTool's result (built per call, see tools.ts), an InputRequiredResult or
 * a CreateTaskResult, each made per call.
 */
export const FRESH_RESULTS: ReadonlySet<string> = new Set(["tools/call"]);

export function modernHandlers(core: ServerCore): RequestHandlers {
  const caps = core.capabilities;
  const h: RequestHandlers = {};
  const size = core.pageSize;
  const report = (e: Error) => core.report(e);
  const runToolIn = (ctx: ModernContext, tool: ToolEntry, args: unknown) => runTool(tool, args, ctx, report) as Result | Promise<Result>;
  if (hasCapability(caps, "tools")) {
    h["tools/list"] = (p: Params) => page("tools", core.lists(revisionOf(p)).tools, p?.cursor, size);
    const call = (p: Params, rc: RequestContext): Result | Promise<Result> => {
      const tool = core.tools.get(p.name as string);
      if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Invalid params: unknown tool ${JSON.stringify(p.name)}`);
      const headers = rc.transportContext?.headers;
      if (headers !== undefined) checkHeaderParams(core.toolHeaders(revisionOf(p), tool.name), p.arguments, headers);
      checkScopes(tool.name, core.definition.toolScopes?.[tool.name], rc.transportContext?.auth);
      const args = p.arguments ?? {};
      const tasks = core.tasks;
      if (tasks !== undefined) {
        const support = core.taskSupport(revisionOf(p), tool.name);
        if (support !== "forbidden") {
          // The server, not the client, decides whether a call becomes a task; the client only says it can take one.
          if (declaresTasks(identityOf(rc.meta).capabilities)) return tasks.call(p, rc, async (ctx) => (await runTool(tool, args, ctx, report)) as Result);
          if (support === "required") throw missingExtension(`tool ${JSON.stringify(tool.name)} (execution.taskSupport "required")`);
        }
      }
      return withInput(core, "tools/call", p, rc, runToolIn, tool, args);
    };
    h["tools/call"] = (p: Params, rc: RequestContext) => {
      const ready = core.toolsReady();
      return ready === undefined ? call(p, rc) : ready.then(() => call(p, rc));
    };
  }
  const tasks = core.tasks;
  if (tasks !== undefined) {
    // tasks/result and tasks/list do not exist in the extension: left out, they answer -32601.
    h["tasks/get"] = (p: Params, rc: RequestContext) => tasks.get(p, rc);
    h["tasks/update"] = (p: Params, rc: RequestContext) => tasks.update(p, rc);
    h["tasks/cancel"] = (p: Params, rc: RequestContext) => tasks.cancel(p, rc);
  }
  if (hasCapability(caps, "prompts")) {
    h["prompts/list"] = (p: Params) => page("prompts", core.lists(revisionOf(p)).prompts, p?.cursor, size);
    h["prompts/get"] = (p: Params, rc: RequestContext) => {
      const prompt = core.prompts.get(p.name as string);
      if (prompt === undefined) throw new McpError(ErrorCode.InvalidParams, `Invalid params: unknown prompt ${JSON.stringify(p.name)}`);
      const args = (p.arguments ?? {}) as { [name: string]: string };
      const absent = prompt.required.filter((a) => typeof args[a] !== "string");
      if (absent.length > 0) {
        throw new McpError(ErrorCode.InvalidParams, `Invalid params: prompt ${JSON.stringify(p.name)} requires argument${absent.length > 1 ? "s" : ""} ${absent.map((a) => JSON.stringify(a)).join(", ")}`);
      }
      return withInput(core, "prompts/get", p, rc, async (ctx) => promptResult(await (prompt.handler as (a: unknown, c: HandlerContext) => unknown)(args, ctx)) as unknown as Result);
    };
  }
  if (hasCapability(caps, "resources")) {
    h["resources/list"] = (p: Params) => page("resources", core.lists(revisionOf(p)).resources, p?.cursor, size);
    h["resources/templates/list"] = (p: Params) => page("resourceTemplates", core.lists(revisionOf(p)).resourceTemplates, p?.cursor, size);
    h["resources/read"] = (p: Params, rc: RequestContext) =>
      withInput(core, "resources/read", p, rc, async (ctx) => {
        try {
          return (await core.router.read(p.uri as string, ctx)) as unknown as Result;
        } catch (e) {
          // 2026-07-28: a missing resource is invalid params, never -32002 (features.md §2).
          if (e instanceof McpError && e.code === ErrorCode.ResourceNotFound) throw new McpError(ErrorCode.InvalidParams, e.message, { uri: p.uri });
          throw e;
        }
      });
  }
  if (hasCapability(caps, "completions")) {
    h["completion/complete"] = (p: Params, rc: RequestContext) => withInput(core, "completion/complete", p, rc, (ctx) => core.complete(p, ctx));
  }
  return h;
}
