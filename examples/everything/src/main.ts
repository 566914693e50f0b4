/**
 * The "everything" server over Streamable HTTP: `npm run everything -- --port 3000` serves
 * http://127.0.0.1:3000/mcp (stateful sessions, SSE replies, resumable streams, DNS-rebinding
 * protection) and prints `listening on <url>` once it accepts connections; `--stdio` serves one
 * connection on stdin/stdout instead: closing stdin stops it once the requests already read are
 * answered (`--drain-timeout <ms>` bounds that wait, default 10 s). SIGTERM/SIGINT close every
 * session and exit 0.
 * `--task-store <file>` keeps tasks in an SQLite file (`@mcpgen/runtime/tasks/sqlite`), so a client
 * can still fetch a finished task's result after the server restarted.
 * `--redis <url>` shares state with the other instances of a cluster through Redis
 * (`@mcpgen/runtime/redis`, docs/scale-out.md): the event store, tasks, requestState claims,
 * change notifications and the directory of legacy sessions (other instances reach this one's at
 * `--instance-url <url>`, default the address it listens on); every instance needs the same
 * requestState key, a hex string of at least 64 digits in the environment variable
 * EVERYTHING_REQUEST_STATE_KEY. `--redis-prefix <name>` names the deployment's keys (default
 * "everything"); `--task-lease <ms>` is how soon a task whose instance died is failed (default
 * 15 s). `--public-url <url>` is the address clients use (a load balancer's): Host and Origin
 * checks accept it, and the endpoint path is its path.
 */
import { parseArgs } from "node:util";
import { createStreamableHttpServer } from "@mcpgen/runtime/http";
import { StdioServerTransport } from "@mcpgen/runtime/stdio";
import { openSqliteTaskStore, type SqliteTaskStore } from "@mcpgen/runtime/tasks/sqlite";
import type { RedisStores } from "@mcpgen/runtime/redis";
import { createServer, type ServeOptions } from "./server.js";

function usage(message: string): never {
  process.stderr.write(
    `everything: ${message}\nusage: everything [--port <port>] [--host <address>] [--redis <url> [--redis-prefix <name>] [--task-lease <ms>] [--instance-url <url>]] [--public-url <url>] | --stdio [--drain-timeout <ms>] [--task-store <file>]\n`,
  );
  process.exit(2);
}

interface Options {
  port: number;
  host: string;
  stdio: boolean;
  drainTimeoutMs: number | undefined;
  taskStore: string | undefined;
  redis: string | undefined;
  redisPrefix: string;
  taskLeaseMs: number | undefined;
  instanceUrl: URL | undefined;
  publicUrl: URL | undefined;
}

function options(argv: string[]): Options {
  let values: {
    port?: string;
    host?: string;
    stdio?: boolean;
    "drain-timeout"?: string;
    "task-store"?: string;
    redis?: string;
    "redis-prefix"?: string;
    "task-lease"?: string;
    "instance-url"?: string;
    "public-url"?: string;
  };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        stdio: { type: "boolean" },
        "drain-timeout": { type: "string" },
        "task-store": { type: "string" },
        redis: { type: "string" },
        "redis-prefix": { type: "string" },
        "task-lease": { type: "string" },
        "instance-url": { type: "string" },
        "public-url": { type: "string" },
      },
      strict: true,
    }));
  } catch (e) {
    usage((e as Error).message);
  }
  const port = values.port === undefined ? 3000 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    usage(`--port must be an integer 0-65535, got ${JSON.stringify(values.port)}`);
  if (values.stdio && (values.port !== undefined || values.host !== undefined))
    usage("--stdio takes no --port or --host");
  if (values["task-store"] === "") usage("--task-store needs a file name");
  const drain = values["drain-timeout"];
  const drainTimeoutMs = drain === undefined ? undefined : Number(drain);
  if (
    drainTimeoutMs !== undefined &&
    (!values.stdio || !Number.isInteger(drainTimeoutMs) || drainTimeoutMs < 0 || drainTimeoutMs > 0x7fffffff)
  ) {
    usage(`--drain-timeout takes --stdio and a number of ms from 0 to 2147483647, got ${JSON.stringify(drain)}`);
  }
  if (values.redis !== undefined && (values.stdio || values["task-store"] !== undefined))
    usage("--redis serves HTTP and keeps tasks in Redis: it takes no --stdio or --task-store");
  if (values.redis !== undefined && !/^rediss?:\/\//.test(values.redis))
    usage("--redis takes a redis:// or rediss:// URL");
  if (values["redis-prefix"] !== undefined && values.redis === undefined) usage("--redis-prefix takes --redis");
  const lease = values["task-lease"] === undefined ? undefined : Number(values["task-lease"]);
  if (
    lease !== undefined &&
    (values.redis === undefined || !Number.isInteger(lease) || lease < 30 || lease > 0x7fffffff)
  ) {
    usage(
      `--task-lease takes --redis and a number of ms from 30 to 2147483647, got ${JSON.stringify(values["task-lease"])}`,
    );
  }
  let instanceUrl: URL | undefined;
  if (values["instance-url"] !== undefined) {
    if (values.redis === undefined) usage("--instance-url takes --redis");
    try {
      instanceUrl = new URL(values["instance-url"]);
    } catch {
      usage(`--instance-url must be an absolute http(s) URL, got ${JSON.stringify(values["instance-url"])}`);
    }
  }
  let publicUrl: URL | undefined;
  if (values["public-url"] !== undefined) {
    if (values.stdio) usage("--stdio takes no --public-url");
    try {
      publicUrl = new URL(values["public-url"]);
    } catch {
      usage(`--public-url must be an absolute http(s) URL, got ${JSON.stringify(values["public-url"])}`);
    }
    if (publicUrl.protocol !== "http:" && publicUrl.protocol !== "https:")
      usage(`--public-url must be an http(s) URL, got ${JSON.stringify(values["public-url"])}`);
  }
  return {
    port,
    host: values.host ?? "127.0.0.1",
    stdio: values.stdio ?? false,
    drainTimeoutMs,
    taskStore: values["task-store"],
    redis: values.redis,
    redisPrefix: values["redis-prefix"] ?? "everything",
    taskLeaseMs: lease,
    instanceUrl,
    publicUrl,
  };
}

/** The requestState key every instance of a cluster shares, from the environment. */
function sharedKey(): Buffer {
  const hex = process.env.EVERYTHING_REQUEST_STATE_KEY ?? "";
  if (!/^([0-9a-fA-F]{2}){32,}$/.test(hex))
    usage(
      "--redis needs EVERYTHING_REQUEST_STATE_KEY: the requestState key all instances share, at least 64 hex digits",
    );
  return Buffer.from(hex, "hex");
}

const { port, host, stdio, drainTimeoutMs, taskStore, redis, redisPrefix, taskLeaseMs, instanceUrl, publicUrl } =
  options(process.argv.slice(2));
let shared: RedisStores | undefined;
let sharedOptions: ServeOptions = {};
if (redis !== undefined) {
  const key = sharedKey();
  // Loaded only here: an everything server without --redis never loads node-redis.
  const { openRedisStores } = await import("@mcpgen/runtime/redis");
  try {
    shared = await openRedisStores({
      url: redis,
      prefix: redisPrefix,
      ...(taskLeaseMs !== undefined ? { tasks: { leaseMs: taskLeaseMs } } : {}),
    });
  } catch (e) {
    process.stderr.write(`everything: ${(e as Error).message}\n`);
    process.exit(1);
  }
  shared.taskStore.onerror = (e) => process.stderr.write(`everything: task leases: ${e.message}\n`);
  shared.eventStore.onerror = (e) =>
    process.stderr.write(
      `everything: an SSE event could not be stored (it was sent, it cannot be replayed): ${e.message}\n`,
    );
  sharedOptions = { taskStore: shared.taskStore, bus: shared.bus, requestState: { key, claims: shared.nonceClaims } };
}
let store: SqliteTaskStore | undefined;
if (taskStore !== undefined) {
  try {
    store = await openSqliteTaskStore(taskStore);
  } catch (e) {
    process.stderr.write(`everything: ${(e as Error).message}\n`);
    process.exit(1);
  }
  if (store.interrupted > 0)
    process.stderr.write(
      `everything: ${store.interrupted} task(s) in ${taskStore} were running when the last server stopped; they are marked failed\n`,
    );
  process.on("exit", () => store?.close());
}
const server = createServer(store !== undefined ? { taskStore: store } : sharedOptions);

if (stdio) {
  // One client for the process's life: its 2025-11-25 tasks stay its own across a restart (--task-store).
  const session = await server.connect(
    new StdioServerTransport(drainTimeoutMs === undefined ? {} : { drainTimeoutMs }),
  );
  // The session closes once stdin has ended and what it brought is answered (or the drain timed
  // out); exit then rather than wait for stray timers.
  const closed = session.onclose;
  session.onclose = () => {
    closed?.();
    process.exit(0);
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const)
    process.on(signal, () => void session.close().then(() => process.exit(0)));
} else {
  await serveHttp();
}

async function serveHttp(): Promise<void> {
  const http = createStreamableHttpServer({
    host,
    port,
    ...(shared !== undefined ? { eventStore: shared.eventStore, sessionDirectory: shared.sessionDirectory } : {}),
    // Behind a balancer clients name its address: accept it (and this instance's own, for probes).
    ...(publicUrl !== undefined
      ? {
          path: publicUrl.pathname,
          allowedHosts: [publicUrl.host, "localhost", "127.0.0.1", "[::1]"],
          allowedOrigins: [publicUrl.origin],
        }
      : {}),
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
    await shared?.close();
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
  // Other instances forward requests for this one's sessions here.
  await shared?.sessionDirectory.announce(instanceUrl ?? url);
  process.stdout.write(`listening on ${url.href}\n`);
}
