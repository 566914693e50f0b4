/**
 * `npm run bench:scale-out` (also the last part of `npm run bench`; BENCH_SCALE_OUT=0 skips it):
 * the "everything" server as real processes over HTTP, one instance in memory against the same
 * instance with its state in Redis (`--redis`), and one instance behind HAProxy against three, all
 * with Redis; then what Redis holds per stored task, per stored SSE event and per legacy session (`INFO memory` over
 * many, so index entries are counted too). Rounds alternate the setups; medians are reported.
 * Knobs: SCALE_BENCH_MS (per phase, 1500), SCALE_BENCH_ROUNDS (3), SCALE_BENCH_CONCURRENCY (16).
 */
import { randomBytes } from "node:crypto";
import { RedisConnection, RedisEventStore, RedisSessionDirectory, RedisTaskStore } from "@mcpgen/runtime/redis";
import { startEverything, type EverythingProcess } from "../test/examples/helpers/everything-process.js";
import { startRedis, type RedisServer } from "../test/redis/harness.js";
import { startCluster } from "../test/redis/cluster.js";
import { median } from "./stats.js";

const PHASE_MS = Number(process.env.SCALE_BENCH_MS ?? 1500);
const ROUNDS = Number(process.env.SCALE_BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.SCALE_BENCH_CONCURRENCY ?? 16);
process.env.EVERYTHING_REQUEST_STATE_KEY ??= randomBytes(32).toString("hex");

const MODERN = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
};
const CALL = { name: "test_simple_text", arguments: {} };

function headers(extra: Record<string, string>): Record<string, string> {
  return { "content-type": "application/json", accept: "application/json, text/event-stream", ...extra };
}

/** Calls per second of `one` run by CONCURRENCY loops for PHASE_MS (after a short warm-up). */
async function throughput(one: () => Promise<void>): Promise<number> {
  const warm = Date.now() + 200;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < warm) await one();
    }),
  );
  let n = 0;
  const start = performance.now();
  const end = Date.now() + PHASE_MS;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) {
        await one();
        n++;
      }
    }),
  );
  return n / ((performance.now() - start) / 1000);
}

async function expectResult(res: Response): Promise<void> {
  const text = await res.text();
  if (res.status !== 200 || !text.includes('"result"'))
    throw new Error(`unexpected reply ${res.status}: ${text.slice(0, 200)}`);
}

let id = 1;
/** A 2026-07-28 stateless tools/call. */
const modernCall = (url: URL) => async () =>
  expectResult(
    await fetch(url, {
      method: "POST",
      headers: headers({ "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": CALL.name }),
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { ...CALL, _meta: MODERN } }),
    }),
  );

/** A 2026-07-28 input-required round and its retry (the retry claims its requestState nonce). */
const modernRetry = (url: URL) => async () => {
  const h = headers({
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "test_input_required_result_elicitation",
  });
  const params = { name: "test_input_required_result_elicitation", arguments: {}, _meta: MODERN };
  const first = (await (
    await fetch(url, {
      method: "POST",
      headers: h,
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params }),
    })
  ).json()) as any;
  const key = Object.keys(first.result.inputRequests)[0]!;
  const retry = {
    ...params,
    requestState: first.result.requestState,
    inputResponses: { [key]: { action: "accept", content: { name: "Ann" } } },
  };
  await expectResult(
    await fetch(url, {
      method: "POST",
      headers: h,
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params: retry }),
    }),
  );
};

/** A legacy (2025-11-25) session, then tools/call within it; with `progress`, a call whose reply streams (each SSE event stored). */
async function legacyCall(url: URL, progress = false): Promise<() => Promise<void>> {
  const init = await fetch(url, {
    method: "POST",
    headers: headers({}),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
    }),
  });
  const session = init.headers.get("mcp-session-id")!;
  await init.text();
  const h = headers({ "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" });
  await (
    await fetch(url, {
      method: "POST",
      headers: h,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    })
  ).text();
  const call = (n: number) =>
    progress ? { name: "test_tool_with_progress", arguments: {}, _meta: { progressToken: n } } : CALL;
  return async () => {
    const n = id++;
    await expectResult(
      await fetch(url, {
        method: "POST",
        headers: h,
        body: JSON.stringify({ jsonrpc: "2.0", id: n, method: "tools/call", params: call(n) }),
      }),
    );
  };
}

async function compare(
  title: string,
  setups: { name: string; start: () => Promise<{ url: URL; close: () => Promise<void> }> }[],
  work: (url: URL) => Promise<() => Promise<void>>,
): Promise<number[]> {
  const runs: number[][] = setups.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, s] of setups.entries()) {
      const server = await s.start();
      try {
        runs[i]!.push(await throughput(await work(server.url)));
      } finally {
        await server.close();
      }
    }
  }
  const medians = runs.map((xs) => median(xs));
  console.log(`  ${title}`);
  for (const [i, s] of setups.entries()) {
    console.log(
      `    ${s.name.padEnd(34)} ${medians[i]!.toFixed(0).padStart(7)} calls/s${i > 0 ? `   ${(medians[i]! / medians[0]!).toFixed(2)}x` : ""}`,
    );
  }
  return medians;
}

async function instance(
  redis: RedisServer | undefined,
  prefix: string,
): Promise<{ url: URL; close: () => Promise<void> }> {
  const p: EverythingProcess = await startEverything([
    "--port",
    "0",
    ...(redis ? ["--redis", redis.url, "--redis-prefix", prefix] : []),
  ]);
  return { url: p.url, close: async () => void (await p.stop()) };
}

const redis = await startRedis();
try {
  console.log(`scale-out (${CONCURRENCY} in flight, ${PHASE_MS} ms phases, medians of ${ROUNDS} rounds):`);
  const single = [
    { name: "one instance, in memory", start: () => instance(undefined, "") },
    { name: "one instance, Redis stores", start: () => instance(redis, `b${randomBytes(3).toString("hex")}`) },
  ];
  await compare("2026-07-28 stateless tools/call (target: Redis >= 0.8x)", single, async (url) => modernCall(url));
  await compare("2026-07-28 input-required round + retry (a nonce claim each)", single, async (url) =>
    modernRetry(url),
  );
  await compare("legacy session tools/call (target: Redis >= 0.6x)", single, (url) => legacyCall(url));
  await compare(
    "legacy session tools/call streaming progress (4 SSE events stored; the tool sleeps 100 ms)",
    single,
    (url) => legacyCall(url, true),
  );
  await compare(
    "2026-07-28 stateless tools/call behind HAProxy, Redis stores",
    [
      { name: "one instance behind HAProxy", start: () => startCluster(1) },
      { name: "three instances behind HAProxy", start: () => startCluster(3) },
    ],
    async (url) => modernCall(url),
  );

  // Redis memory: INFO used_memory over many stored things, so every index entry is counted.
  const link = await RedisConnection.open({ url: redis.url, prefix: "mem" });
  const used = async () => Number(/used_memory:(\d+)/.exec(await link.command<string>(["INFO", "memory"]))![1]);
  const N = 2000;
  const tasks = new RedisTaskStore(link, { maxTasks: N, maxTasksPerOwner: N });
  const before = await used();
  const result = { content: [{ type: "text", text: "Computed result after 1s" }] };
  for (let i = 0; i < N; i++) {
    const t = await tasks.create({ pollIntervalMs: 500, owner: `user-${i % 50}` });
    await tasks.update(t.taskId, { status: "completed", result });
  }
  const perTask = (await used()) - before;
  tasks.close();
  const events = new RedisEventStore(link);
  const beforeEvents = await used();
  for (let i = 0; i < N; i++)
    await events.storeEvent(`stream-${i % 100}`, {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: i, progress: i },
    });
  const perEvent = (await used()) - beforeEvents;
  const directory = new RedisSessionDirectory(link);
  const beforeSessions = await used();
  // What an SDK v1 client's session keeps: its directory entry and its record (session-record.ts).
  const record = JSON.stringify({
    initialize: {
      protocolVersion: "2025-11-25",
      capabilities: { elicitation: {} },
      clientInfo: { name: "claude-code", version: "2.0.0" },
    },
    subscriptions: [],
    streams: "1k2j3h4g5",
    standalone: "1k2j3h4g5-1",
  });
  for (let i = 0; i < N; i++) {
    const sid = randomBytes(16).toString("hex");
    await directory.opened(sid);
    directory.save(sid, undefined, record);
  }
  await link.command(["PING"]);
  const perSession = (await used()) - beforeSessions;
  await directory.close();
  const sample = (await link.command<string[]>(["KEYS", `${link.namespace}:task:*`]))[0]!;
  const one = await link.command<number>(["MEMORY", "USAGE", sample]);
  console.log("  Redis memory");
  console.log(
    `    per stored task (completed, small result; indexes included)  ${(perTask / N).toFixed(0)} bytes (MEMORY USAGE of one task hash: ${one} bytes)`,
  );
  console.log(`    per stored SSE event (a progress notification)                ${(perEvent / N).toFixed(0)} bytes`);
  console.log(`    per idle legacy session (its directory entry and record)      ${(perSession / N).toFixed(0)} bytes`);
  await link.close();
} finally {
  await redis.close();
}
