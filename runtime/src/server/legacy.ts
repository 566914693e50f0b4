/**
 * The legacy side of McpServer (2024-11-05 … 2025-11-25), twin of modern.ts: a connection's
 * ServerSession, whose `initialize` answers with the negotiated revision's view of the manifest,
 * and its request handlers over the server core (core.ts): the same tools, prompts, resources and
 * completions, run with the connection's handler context (context.ts), the negotiated revision's
 * lists, `logging/setLevel`, and 2025-11-25 core tasks where the revision has them.
 */
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import { describe } from "../describe.js";
import type { Transport } from "../transport.js";
import type { SessionBytes } from "../session/running-bytes.js";
import type { Params, RequestContext } from "../session/types.js";
import { ServerSession } from "../lifecycle/legacy/server.js";
import { hasCapability } from "../lifecycle/common/capabilities.js";
import type { Capabilities, Implementation, RequestHandlers } from "../lifecycle/common/types.js";
import type { LoggingLevel } from "../mcp-types.js";
import { createContext, levelIndex, type Connection } from "./context.js";
import type { ServerCore } from "./core.js";
import { listedResources } from "./listed-resources.js";
import { page } from "./pagination.js";
import { promptResult } from "./results.js";
import { checkScopes } from "./scopes.js";
import { runTool } from "./tools.js";
import type { ConnectOptions, HandlerContext, McpServerOptions } from "./types.js";

/**
 * Whether sessions of legacy `revision` serve core tasks: its schema has them (2025-11-25) and a
 * tool declares support. Asked once a connection negotiated `revision`, whose table is loaded by then.
 */
function coreTasks(core: ServerCore, revision: string): boolean {
  if (core.taskToolRevisions?.has(revision) !== true) return false;
  for (const b of core.legacy) if (b.revision === revision) return b.methods["tasks/result"] !== undefined;
  return false;
}

/**
 * Serve `transport` as a legacy connection of the server (McpServer.connect): its session, one of
 * `connections` until it closes; resolves once the transport is started.
 */
export async function connectLegacy(
  core: ServerCore,
  connections: Set<Connection>,
  transport: Transport,
  connect: ConnectOptions,
  runningBytes: SessionBytes,
  options: McpServerOptions,
): Promise<ServerSession> {
  // oxlint-disable-next-line prefer-const -- the session's callback reads it; assigned once the session it holds exists
  let conn!: Connection;
  const stateless = connect.stateless !== undefined;
  // Built before the transport starts, so the connection exists when the first request arrives.
  const session = legacySession(core, transport, () => conn, connect.stateless, runningBytes, options);
  // A fresh owner names this connection alone: once it closes nobody can reach its tasks again.
  const ownOwner =
    stateless || connect.taskOwner !== undefined || transport.hints?.peerIdentity !== undefined
      ? undefined
      : `session:${globalThis.crypto.randomUUID()}`;
  conn = {
    session,
    logThreshold: levelIndex(options.logLevel ?? "info"),
    ready: false,
    ...(stateless ? {} : { taskOwner: connect.taskOwner ?? transport.hints?.peerIdentity ?? ownOwner }),
  };
  connections.add(conn);
  session.initialized.then(
    () => (conn.ready = true),
    () => {},
  );
  session.onclose = () => {
    connections.delete(conn);
    // Its tasks stop counting against the store (tasks of a principal stay: it can come back).
    if (ownOwner !== undefined) core.legacyTasks?.release(ownOwner).catch(core.report);
  };
  try {
    await transport.start();
  } catch (e) {
    connections.delete(conn);
    throw e;
  }
  return session;
}

/**
 * A connection's legacy session over `transport`; `conn` is the connection once made (its
 * handlers run only after). `stateless`: served without a handshake (ConnectOptions.stateless).
 */
function legacySession(
  core: ServerCore,
  transport: Transport,
  conn: () => Connection,
  stateless: { protocolVersion?: string } | undefined,
  runningBytes: SessionBytes,
  options: McpServerOptions,
): ServerSession {
  const isStateless = stateless !== undefined;
  // The session's own capabilities gate inbound methods: tasks/* exist when some revision has them.
  const tasks = core.legacyTasks !== undefined;
  return new ServerSession({
    transport,
    bindings: core.bindings().legacy,
    serverInfo: core.serverInfo,
    capabilities: tasks ? core.taskModule.withTaskCapabilities(core.capabilities, isStateless) : core.capabilities,
    ...(core.instructions === undefined ? {} : { instructions: core.instructions }),
    // initialize answers with the negotiated revision's view of the manifest.
    describe: (revision) => {
      const lists = core.lists(revision);
      const caps = lists.capabilities as Capabilities;
      return {
        serverInfo: lists.serverInfo as Implementation,
        capabilities: coreTasks(core, revision) ? core.taskModule.withTaskCapabilities(caps, isStateless) : caps,
        instructions: lists.instructions,
      };
    },
    handlers: legacyHandlers(core, conn, isStateless),
    timeout: options.timeout,
    trustPeer: options.trustPeer,
    onerror: core.report,
    ...(stateless ? { stateless } : {}),
    handlersChecked: true,
    runningBytes,
  });
}

/** The request handlers of one legacy connection (no `tasks/list` when stateless). */
function legacyHandlers(core: ServerCore, conn: () => Connection, stateless: boolean): RequestHandlers {
  const caps = core.capabilities;
  const h: RequestHandlers = {};
  const revisionOf = () => conn().session.protocolVersion ?? conn().session.binding.revision;
  const ctx = (rc: RequestContext): HandlerContext => createContext(conn(), rc);
  const size = core.pageSize;
  if (hasCapability(caps, "tools")) {
    h["tools/list"] = (p: Params | undefined) => page("tools", core.lists(revisionOf()).tools, p?.cursor, size);
    const call = (p: Params, rc: RequestContext) => {
      const tool = core.tools.get(p.name as string);
      if (tool === undefined)
        throw new McpError(ErrorCode.InvalidParams, `Invalid params: unknown tool ${describe(p.name)}`);
      const c = ctx(rc);
      checkScopes(tool.name, core.definition.toolScopes?.[tool.name], c.auth);
      // Revisions without core tasks ignore params.task and run every tool on the request: a
      // synchronous handler answered at once (a promise would cost the call two closures and a turn).
      if (core.legacyTasks === undefined) return runTool(tool, p.arguments ?? {}, c, core.report);
      const revision = revisionOf();
      if (!coreTasks(core, revision)) return runTool(tool, p.arguments ?? {}, c, core.report);
      return core.taskModule.callMaybeTask(
        core.legacyTasks,
        core.taskSupport(revision, tool.name),
        tool.name,
        p,
        rc,
        conn(),
        async () => runTool(tool, p.arguments ?? {}, c, core.report),
        async (taskRc, status) => runTool(tool, p.arguments ?? {}, createContext(conn(), taskRc, status), core.report),
      );
    };
    h["tools/call"] = (p: Params, rc: RequestContext) => {
      const ready = core.toolsReady();
      return ready === undefined ? call(p, rc) : ready.then(() => call(p, rc));
    };
  }
  if (core.legacyTasks !== undefined) Object.assign(h, core.taskModule.taskHandlers(core.legacyTasks, conn, stateless));
  // Declaring prompts needs their feature (ServerCore refuses a server declaring them without it).
  const prompts = core.prompts;
  if (prompts !== undefined && hasCapability(caps, "prompts")) {
    h["prompts/list"] = (p: Params | undefined) => page("prompts", core.lists(revisionOf()).prompts, p?.cursor, size);
    h["prompts/get"] = async (p: Params, rc: RequestContext) => {
      const prompt = prompts.get(p.name as string);
      if (prompt === undefined)
        throw new McpError(ErrorCode.InvalidParams, `Invalid params: unknown prompt ${describe(p.name)}`);
      const args = (p.arguments ?? {}) as { [name: string]: string };
      const absent = prompt.required.filter((a) => typeof args[a] !== "string");
      if (absent.length > 0) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid params: prompt ${describe(p.name)} requires argument${absent.length > 1 ? "s" : ""} ${absent.map((a) => JSON.stringify(a)).join(", ")}`,
        );
      }
      return promptResult(await (prompt.handler as (a: unknown, c: HandlerContext) => unknown)(args, ctx(rc)));
    };
  }
  // Declaring resources needs the router (ServerCore refuses a server declaring them without it).
  const router = core.router;
  if (router !== undefined && hasCapability(caps, "resources")) {
    h["resources/list"] = (p: Params | undefined) =>
      page("resources", listedResources(core, revisionOf()), p?.cursor, size);
    h["resources/templates/list"] = (p: Params | undefined) =>
      page("resourceTemplates", core.lists(revisionOf()).resourceTemplates, p?.cursor, size);
    h["resources/read"] = (p: Params, rc: RequestContext) => router.read(p.uri as string, ctx(rc));
  }
  if (core.skills !== undefined) Object.assign(h, core.skills.handlers(size));
  if (hasCapability(caps, "logging")) {
    h["logging/setLevel"] = (p: Params) => {
      conn().logThreshold = levelIndex(p.level as LoggingLevel);
      return {};
    };
  }
  if (hasCapability(caps, "completions")) {
    h["completion/complete"] = (p: Params, rc: RequestContext) => core.completion!(core, p, ctx(rc));
  }
  return h;
}
