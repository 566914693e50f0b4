/**
 * The "everything" server over Streamable HTTP: `npm run everything -- --port 3000` serves
 * http://127.0.0.1:3000/mcp (stateful sessions, SSE replies, resumable streams, DNS-rebinding
 * protection) and prints `listening on <url>` once it accepts connections; `--stdio` serves one
 * connection on stdin/stdout instead: closing stdin stops it once the requests already read are
 * answered (`--drain-timeout <ms>` bounds that wait, default 10 s). SIGTERM/SIGINT close every
 * session and exit 0.
 * `--task-store <file>` keeps tasks in an SQLite file (`@mcpgen/runtime/tasks/sqlite`), so a client
 * can still fetch a finished task's result after the server restarted.
 */
import { parseArgs } from "node:util";
import { createStreamableHttpServer } from "@mcpgen/runtime/http";
import { StdioServerTransport } from "@mcpgen/runtime/stdio";
import { openSqliteTaskStore, type SqliteTaskStore } from "@mcpgen/runtime/tasks/sqlite";
import { createServer } from "./server.js";

function usage(message: string): never {
  process.stderr.write(`everything: ${message}\nusage: everything [--port <port>] [--host <address>] | --stdio [--drain-timeout <ms>] [--task-store <file>]\n`);
  process.exit(2);
}

function options(argv: string[]): { port: number; host: string; stdio: boolean; drainTimeoutMs: number | undefined; taskStore: string | undefined } {
  let values: { port?: string; host?: string; stdio?: boolean; "drain-timeout"?: string; "task-store"?: string };
  try {
    ({ values } = parseArgs({ args: argv, options: { port: { type: "string" }, host: { type: "string" }, stdio: { type: "boolean" }, "drain-timeout": { type: "string" }, "task-store": { type: "string" } }, strict: true }));
  } catch (e) {
    usage((e as Error).message);
  }
  const port = values.port === undefined ? 3000 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) usage(`--port must be an integer 0-65535, got ${JSON.stringify(values.port)}`);
  if (values.stdio && (values.port !== undefined || values.host !== undefined)) usage("--stdio takes no --port or --host");
  if (values["task-store"] === "") usage("--task-store needs a file name");
  const drain = values["drain-timeout"];
  const drainTimeoutMs = drain === undefined ? undefined : Number(drain);
  if (drainTimeoutMs !== undefined && (!values.stdio || !Number.isInteger(drainTimeoutMs) || drainTimeoutMs < 0 || drainTimeoutMs > 0x7fffffff)) {
    usage(`--drain-timeout takes --stdio and a number of ms from 0 to 2147483647, got ${JSON.stringify(drain)}`);
  }
  return { port, host: values.host ?? "127.0.0.1", stdio: values.stdio ?? false, drainTimeoutMs, taskStore: values["task-store"] };
}

const { port, host, stdio, drainTimeoutMs, taskStore } = options(process.argv.slice(2));
let store: SqliteTaskStore | undefined;
if (taskStore !== undefined) {
  try {
    store = await openSqliteTaskStore(taskStore);
  } catch (e) {
    process.stderr.write(`everything: ${(e as Error).message}\n`);
    process.exit(1);
  }
  if (store.interrupted > 0) process.stderr.write(`everything: ${store.interrupted} task(s) in ${taskStore} were running when the last server stopped; they are marked failed\n`);
  process.on("exit", () => store?.close());
}
const server = createServer(store !== undefined ? { taskStore: store } : {});

if (stdio) {
  // One client for the process's life: its 2025-11-25 tasks stay its own across a restart (--task-store).
  const session = await server.connect(new StdioServerTransport(drainTimeoutMs === undefined ? {} : { drainTimeoutMs }));
  // The session closes once stdin has ended and what it brought is answered (or the drain timed
  // out); exit then rather than wait for stray timers.
  const closed = session.onclose;
  session.onclose = () => {
    closed?.();
    process.exit(0);
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void session.close().then(() => process.exit(0)));
} else {
  await serveHttp();
}

async function serveHttp(): Promise<void> {
  const http = createStreamableHttpServer({
    host,
    port,
    onsession: async (transport) => {
      await server.connect(transport);
    },
  });

  // Handlers first: a supervisor may signal as soon as the port answers.
  let stopping = false;
  async function stop(signal: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    // A stuck close must not keep the process alive past its supervisor's patience.
    setTimeout(() => {
      process.stderr.write(`everything: ${signal}: close did not finish in 3 s; exiting\n`);
      process.exit(1);
    }, 3000).unref();
    await http.close();
    process.exit(0);
  }
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));

  let url: URL;
  try {
    url = await http.listen();
  } catch (e) {
    process.stderr.write(`everything: cannot listen on ${host}:${port}: ${(e as Error).message}\n`);
    process.exit(1);
  }
  process.stdout.write(`listening on ${url.href}\n`);
}
