/**
 * The 2026-07-28 side of McpServer, twin of legacy.ts: the lifecycle core its 2026-07-28
 * connections share, whose results name the server and carry its caching hints, and the request
 * handlers over the server core (core.ts): the same tools, prompts, resources and completions as
 * the legacy side, run with a per-request context (identity and log level from `_meta`), input
 * requests as InputRequiredResult rounds, `Mcp-Param-*` headers checked against the tool's
 * `x-mcp-header` arguments, and "resource not found" as -32602 with `data.uri`.
 */
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import type { Params, RequestContext, Result } from "../session/types.js";
import { hasCapability } from "../lifecycle/common/capabilities.js";
import type { Capabilities, Implementation, RequestHandlers } from "../lifecycle/common/types.js";
import type { ListenHub } from "../lifecycle/modern/listen.js";
import { requestRevision as revisionOf } from "../lifecycle/modern/meta.js";
import { INPUT_REQUIRED_METHODS } from "../lifecycle/modern/wire.js";
import { ModernServerCore, type Description } from "../lifecycle/modern/server.js";
import type { ServerCore } from "./core.js";
import { ModernContext } from "./modern-context.js";
import { page } from "./pagination.js";
import type { ModernRun } from "./modern-resources.js";
import { runTool, type ToolEntry } from "./tools.js";
import { checkScopes } from "./scopes.js";
import type { HandlerContext, McpServerOptions } from "./types.js";

/**
 * A server asking clients for nothing (no MRTR code) issued no requestState, so one a client sends is
 * not its own (-32602, as a state this server cannot verify); `inputResponses` no handler reads are
 * ignored, as always.
 */
function withoutInput<A, B>(
  method: string,
  params: Params | undefined,
  rc: RequestContext,
  body: (ctx: ModernContext, a: A, b: B) => Result | Promise<Result>,
  a?: A,
  b?: B,
): Result | Promise<Result> {
  if (params?.requestState !== undefined && INPUT_REQUIRED_METHODS.includes(method)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      "Invalid params: requestState was not issued by this server (it asks clients for no input)",
      { pointer: "/params/requestState" },
    );
  }
  return body(new ModernContext(rc, undefined, undefined, undefined), a as A, b as B);
}

/**
 * Run `body` with a context whose client calls are input requests (input-run.ts) when the server
 * was given the MRTR code, else with one that asks for nothing.
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
  const inputs = core.inputs;
  if (inputs === undefined) return withoutInput(method, params, rc, body, a, b);
  return inputs.withInput(core, method, params, rc, body, a, b);
}

/**
 * Methods of this table whose every result is a new object made for that response alone:
 * tools/call answers runTool's result (built per call, see tools.ts), an InputRequiredResult or
 * a CreateTaskResult, each made per call.
 */
const FRESH_RESULTS: ReadonlySet<string> = new Set(["tools/call"]);

/**
 * The lifecycle core of an McpServer's 2026-07-28 connections (one per server): its bindings, with
 * the tasks extension's methods when tools may run as tasks, each revision's description (with the
 * extension where its tools may), and the handlers below.
 */
export function modernServerCore(
  core: ServerCore,
  supportedVersions: readonly string[],
  listens: ListenHub,
  options: McpServerOptions,
): ModernServerCore {
  const described = new Map<string, Description>();
  // Every result asks, nearly always for the revision the last one asked for.
  let lastRevision: string | undefined;
  let lastDescription: Description | undefined;
  return new ModernServerCore({
    bindings:
      core.tasks === undefined ? core.bindings().modern : core.bindings().modern.map(core.taskModule.withTaskMethods),
    supportedVersions,
    // Every result names the server: look its description up once per revision.
    describe: (revision) => {
      if (revision === lastRevision) return lastDescription!;
      let d = described.get(revision);
      if (d === undefined) {
        const lists = core.lists(revision);
        let capabilities = lists.capabilities as Capabilities;
        if (core.tasks !== undefined) capabilities = core.taskModule.withTasksExtension(core, revision, capabilities);
        d = { serverInfo: lists.serverInfo as Implementation, capabilities, instructions: lists.instructions };
        described.set(revision, d);
      }
      lastRevision = revision;
      lastDescription = d;
      return d;
    },
    handlers: modernHandlers(core),
    freshResults: FRESH_RESULTS,
    cache: (method, params) => core.cacheHint(method, params),
    listens,
    timeout: options.timeout,
    trustPeer: options.trustPeer,
    onerror: core.report,
  });
}

function modernHandlers(core: ServerCore): RequestHandlers {
  const caps = core.capabilities;
  const h: RequestHandlers = {};
  const size = core.pageSize;
  const runToolIn = (ctx: HandlerContext, tool: ToolEntry, args: unknown) =>
    runTool(tool, args, ctx, core.report) as Result | Promise<Result>;
  if (hasCapability(caps, "tools")) {
    h["tools/list"] = (p: Params) => page("tools", core.lists(revisionOf(p)).tools, p?.cursor, size);
    const call = (p: Params, rc: RequestContext): Result | Promise<Result> => {
      const tool = core.tools.get(p.name as string);
      if (tool === undefined)
        throw new McpError(ErrorCode.InvalidParams, `Invalid params: unknown tool ${JSON.stringify(p.name)}`);
      const headers = rc.transportContext?.headers;
      // Loaded before any 2026-07-28 connection starts (McpServer's prepare).
      if (headers !== undefined)
        core.toolHeaders?.value!.checkToolHeaders(core, revisionOf(p), tool.name, p.arguments, headers);
      checkScopes(tool.name, core.definition.toolScopes?.[tool.name], rc.transportContext?.auth);
      const args = p.arguments ?? {};
      const task = core.tasks && core.taskModule.callAsTask(core, p, rc, tool, args, runToolIn);
      if (task !== undefined) return task;
      return withInput(core, "tools/call", p, rc, runToolIn, tool, args);
    };
    h["tools/call"] = (p: Params, rc: RequestContext) => {
      const ready = core.toolsReady();
      return ready === undefined ? call(p, rc) : ready.then(() => call(p, rc));
    };
  }
  if (core.tasks !== undefined) Object.assign(h, core.tasks.handlers());
  // Declaring prompts or resources needs their feature (ServerCore refuses a server declaring them without it).
  const run: ModernRun = (method, p, rc, body) => withInput(core, method, p, rc, body);
  if (core.prompts !== undefined && hasCapability(caps, "prompts")) core.prompts.serveModern(h, core, run);
  if (core.router !== undefined && hasCapability(caps, "resources")) core.router.serveModern(h, core, run);
  // skills/list and skills/get results are cacheable in 2026-07-28: the lists' hint applies.
  if (core.skills !== undefined) Object.assign(h, core.skills.handlers(size, core.cacheHint("skills/list", undefined)));
  if (hasCapability(caps, "completions")) {
    h["completion/complete"] = (p: Params, rc: RequestContext) =>
      withInput(core, "completion/complete", p, rc, (ctx) => core.completion!(core, p, ctx));
  }
  return h;
}
