// The Redis stores (`@mcpgen/runtime/redis`, node-redis over the host's node:net) under the fetch
// handler on Bun and on Deno: two instances of the everything server, each a child process on its
// own port, share one redis-server of the test's own. A listen held by one hears a change raised
// on the other, a requestState claimed through one is refused by the other, a task started on one
// is polled to its result on the other, and Redis stopped mid-run gives errors (not a crash) until
// it is back. node-redis stays outside the bundle and is loaded from node_modules, as a user's
// `bun dist/bun.js` or `deno run dist/deno.js` loads it. A legacy session's SSE events go to the
// Redis event store too, and a resume while Redis is down gets 503.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, tempDir } from "../helpers.js";
import { killAll } from "../conformance/procs.js";
import { startRedis, type RedisServer } from "../redis/harness.js";
import { bundleFor, npmProjectDir, serveOn } from "./runtimes.js";

type ProcessHost = "bun" | "deno";
const SERVER = JSON.stringify(join(repoRoot, "dist", "examples", "everything", "src", "server.js"));
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {
    elicitation: {},
    extensions: { "io.modelcontextprotocol/tasks": {} },
  },
};

/** The everything server with its state in Redis, served by createFetchHandler on `host`. */
function redisEntry(host: ProcessHost, redisUrl: string, prefix: string, keyHex: string): string {
  const serve =
    host === "bun"
      ? `const s = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, fetch: handler });
console.log("listening on http://127.0.0.1:" + s.port + "/mcp");`
      : `Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log("listening on http://127.0.0.1:" + port + "/mcp") }, handler);`;
  return `import { createFetchHandler } from "@mcpgen/runtime/fetch";
import { openRedisStores } from "@mcpgen/runtime/redis";
import { createServer } from ${SERVER};
const shared = await openRedisStores({ url: ${JSON.stringify(redisUrl)}, prefix: ${JSON.stringify(prefix)}, tasks: { leaseMs: 3000 } });
shared.taskStore.onerror = (e) => console.error("task leases: " + e.message);
// Every instance signs and checks requestState with the same key.
const key = new Uint8Array(${JSON.stringify(keyHex)}.match(/../g).map((h) => parseInt(h, 16)));
const server = createServer({ taskStore: shared.taskStore, bus: shared.bus, requestState: { key, claims: shared.nonceClaims } });
const handler = createFetchHandler(server, { eventStore: shared.eventStore });
${serve}
`;
}

let nextId = 1;

function post(url: URL, method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<Response> {
  const name = (params.name ?? params.taskId) as string | undefined;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  };
  if (name !== undefined) headers["mcp-name"] = name;
  return fetch(url, {
    method: "POST",
    // A hang is a failure: every request is answered within 5 s, Redis or not.
    signal: signal ?? AbortSignal.timeout(5_000),
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: META } }),
  });
}

interface Reply {
  status: number;
  body: string;
  message: any;
}

async function call(url: URL, method: string, params: Record<string, unknown>): Promise<Reply> {
  const res = await post(url, method, params);
  const body = await res.text();
  // A reply may come as JSON or as one SSE event; a 503 may carry no JSON-RPC message.
  const line = body.startsWith("{")
    ? body
    : body
        .split("\n")
        .find((l) => l.startsWith("data: {"))
        ?.slice(6);
  return { status: res.status, body, message: line === undefined ? undefined : JSON.parse(line) };
}

async function rpc(url: URL, method: string, params: Record<string, unknown>): Promise<any> {
  const r = await call(url, method, params);
  if (r.message === undefined) throw new Error(`no JSON-RPC reply (${r.status}): ${r.body.slice(0, 300)}`);
  return r.message;
}

/** Holds a listen on `listener`, raises a tools list change on `raiser`, and waits (bounded) to hear it. */
async function changeHeardAcross(listener: URL, raiser: URL): Promise<void> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), 10_000);
  try {
    const listen = await post(
      listener,
      "subscriptions/listen",
      { notifications: { toolsListChanged: true } },
      ctrl.signal,
    );
    assert.is(listen.status, 200);
    const reader = listen.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const until = async (what: string): Promise<void> => {
      while (!text.includes(what)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`listen ended: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
    };
    // The listen is open once its acknowledgement arrived; then the change is raised elsewhere.
    await until("notifications/subscriptions/acknowledged");
    // Raised again every 300 ms until heard: a bus just back from a Redis restart may not have
    // resubscribed yet (pub/sub keeps nothing for a subscriber that is not there).
    let heard = false;
    const raising = (async () => {
      while (!heard && !ctrl.signal.aborted) {
        const raised = await rpc(raiser, "tools/call", { name: "test_trigger_tool_change", arguments: {} });
        assert.ok(raised.result, JSON.stringify(raised));
        await new Promise((r) => setTimeout(r, 300));
      }
    })();
    await until("notifications/tools/list_changed");
    heard = true;
    await raising;
  } finally {
    clearTimeout(timer);
    ctrl.abort();
  }
}

const elicit = { name: "test_input_required_result_elicitation", arguments: {} };

/** The retry of an input-required `tools/call`, answering its one elicitation. */
function retryOf(first: any, name: string): Record<string, unknown> {
  const [key] = Object.keys(first.result.inputRequests);
  return {
    ...elicit,
    requestState: first.result.requestState,
    inputResponses: { [key!]: { action: "accept", content: { name } } },
  };
}

const tmp = tempDir("mcpgen-hosts-redis-");

for (const host of ["bun", "deno"] as const) {
  const test = suite(`Redis stores under the fetch handler on ${host}`);
  let redis: RedisServer | undefined;
  const instances: Awaited<ReturnType<typeof serveOn>>[] = [];
  const at = (i: number): URL => instances[i]!.url;
  const alive = (): void => {
    for (const p of instances) assert.is(p.proc.exited(), undefined, `a ${host} instance ended: ${p.proc.tail()}`);
  };

  test.before(async () => {
    redis = await startRedis();
    const dir = join(tmp.dir, host);
    mkdirSync(dir, { recursive: true });
    npmProjectDir(dir);
    const entry = redisEntry(host, redis.url, `hosts-${host}`, randomBytes(32).toString("hex"));
    const { code } = await bundleFor(host, entry, { external: ["redis"] });
    const file = join(dir, "server.mjs");
    writeFileSync(file, code);
    for (let i = 0; i < 2; i++) instances.push(await serveOn(host, file, join(dir, "deno-dir")));
  });

  test.after(async () => {
    for (const p of instances) await p.stop();
    await redis?.close();
  });

  test("a tools list change raised on one instance reaches a listen held by the other", async () => {
    await changeHeardAcross(at(0), at(1));
  });

  test("a requestState claimed through one instance is refused by the other", async () => {
    const first = await rpc(at(0), "tools/call", elicit);
    assert.is(first.result.resultType, "input_required");
    const retry = retryOf(first, "Bob");
    const ok = await rpc(at(1), "tools/call", retry);
    assert.is(ok.result.content[0].text, "Hello, Bob!", "the other instance accepts a state this one minted");
    for (const i of [0, 1]) {
      const replay = await rpc(at(i), "tools/call", retry);
      assert.is(replay.error?.code, -32602, JSON.stringify(replay));
      assert.match(replay.error.message, /already used/);
    }
  });

  test("a task created on one instance is polled to its result on the other", async () => {
    const created = (await rpc(at(0), "tools/call", { name: "slow_compute", arguments: { seconds: 0.4, label: host } }))
      .result;
    assert.is(created.resultType, "task");
    let seen: any;
    const until = Date.now() + 10_000;
    do {
      seen = (await rpc(at(1), "tasks/get", { taskId: created.taskId })).result;
      if (seen.status === "completed") break;
      await new Promise((r) => setTimeout(r, 100));
    } while (Date.now() < until);
    assert.is(seen.status, "completed", JSON.stringify(seen));
    assert.is(seen.result?.content?.[0]?.text, `Computed ${host} after 0.4s`);
  });

  test("Redis stopped mid-run: errors saying so (not a crash, not a hang), and service resumes when it is back", async () => {
    await redis!.stop();
    try {
      // A plain call needs no Redis.
      const plain = await rpc(at(0), "tools/call", { name: "test_simple_text", arguments: {} });
      assert.is(plain.result.content[0].text, "This is a simple text response for testing.");
      // Claiming a requestState, reading a task and raising a change do.
      const first = await rpc(at(0), "tools/call", elicit);
      const refused = [
        await call(at(1), "tools/call", retryOf(first, "Ann")),
        await call(at(1), "tasks/get", { taskId: "no-such-task" }),
        await call(at(0), "tools/call", { name: "slow_compute", arguments: { seconds: 0.1 } }),
      ];
      for (const r of refused) {
        assert.ok(
          r.status === 503 ||
            (r.message?.error?.code === -32603 &&
              r.message.error.data?.retryable === true &&
              /shared store did not answer/.test(r.message.error.message)),
          `${r.status} ${r.body.slice(0, 300)}`,
        );
        assert.not.match(r.body, /127\.0\.0\.1|redis:/, "the client learns nothing of where Redis is");
      }
      alive();
    } finally {
      await redis!.start();
    }
    // The clients reconnect by themselves (backoff capped at 1 s).
    let resumed: any;
    const until = Date.now() + 10_000;
    do {
      const first = await rpc(at(0), "tools/call", elicit);
      resumed = first.result?.requestState ? await rpc(at(1), "tools/call", retryOf(first, "Ann")) : first;
      if (resumed.result?.content?.[0]?.text === "Hello, Ann!") break;
      await new Promise((r) => setTimeout(r, 200));
    } while (Date.now() < until);
    assert.is(resumed.result?.content?.[0]?.text, "Hello, Ann!", JSON.stringify(resumed));
    const task = (await rpc(at(1), "tools/call", { name: "slow_compute", arguments: { seconds: 0.1 } })).result;
    assert.is(task.resultType, "task");
    assert.match(JSON.stringify(await rpc(at(0), "tasks/get", { taskId: task.taskId })), /"taskId"/);
    // The bus's subscription came back too.
    await changeHeardAcross(at(1), at(0));
    alive();
  });

  test("a legacy session's events go to Redis: with Redis down a resume gets 503, once it is back a resume is served", async () => {
    const url = at(0);
    const base = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const init = await fetch(url, {
      method: "POST",
      headers: base,
      signal: AbortSignal.timeout(5_000),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "hosts-redis", version: "1" } },
      }),
    });
    const session = init.headers.get("mcp-session-id");
    await init.text();
    assert.ok(session, `a session (${init.status})`);
    const h = { ...base, "mcp-session-id": session!, "mcp-protocol-version": "2025-11-25" };
    await (
      await fetch(url, {
        method: "POST",
        headers: h,
        signal: AbortSignal.timeout(5_000),
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      })
    ).text();
    // Progress first, so the reply is an SSE stream whose events are stored.
    const progress = (id: number): Promise<string> =>
      fetch(url, {
        method: "POST",
        headers: h,
        signal: AbortSignal.timeout(5_000),
        body: JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "test_tool_with_progress", arguments: {}, _meta: { progressToken: id } },
        }),
      }).then((r) => r.text());
    const resume = async (eventId: string): Promise<number> => {
      const ctrl = new AbortController();
      const timer = setTimeout(() => ctrl.abort(), 5_000);
      try {
        const res = await fetch(url, {
          method: "GET",
          headers: { ...h, "last-event-id": eventId },
          signal: ctrl.signal,
        });
        return res.status;
      } finally {
        clearTimeout(timer);
        ctrl.abort();
      }
    };
    const before = await progress(1);
    const eventId = /^id: (.+)$/m.exec(before)?.[1];
    assert.ok(eventId, before);
    assert.is(await resume(eventId!), 200, "a stored event is resumed from");
    await redis!.stop();
    try {
      assert.match(await progress(2), /"id":2,"result"/, "the reply arrives although it could not be stored");
      assert.is(await resume(eventId!), 503);
      alive();
    } finally {
      await redis!.start();
    }
    // Back: new events are stored again, so a resume from one is served (the restarted Redis kept nothing).
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      const id = /^id: (.+)$/m.exec(await progress(3 + i))?.[1];
      if (id !== undefined) status = await resume(id);
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert.is(status, 200, "events are stored again");
    alive();
  });

  test.run();
}

process.on("exit", () => {
  killAll();
  tmp.cleanup();
});
