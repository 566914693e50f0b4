// The task quotas over real HTTP: the "everything" server on Streamable HTTP (127.0.0.1, port 0),
// once with the memory store and once with the SQLite file, and raw fetches as the callers. One
// session floods 2025-11-25 task calls asking for a day's retention: its own quota refuses it
// long before the store is full, while another session and a 2026-07-28 call still get tasks;
// deleting the flooding session (HTTP DELETE) stops its handlers and drops its tasks from the
// store. Behind an authorization guard the quota is the principal's, across its sessions, and
// its tasks outlive a deleted session.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryTaskStore, type McpServer, type TaskStore } from "@mcpgen/runtime";
import { createStreamableHttpServer, type StreamableHttpServer } from "@mcpgen/runtime/http";
import { createResourceServer, InvalidTokenError, type AuthInfo } from "@mcpgen/runtime/auth";
import { openSqliteTaskStore } from "@mcpgen/runtime/tasks/sqlite";
import { createEverythingServer } from "../../examples/everything/src/mcp/server.js";
import { createHandlers } from "../../examples/everything/src/handlers.js";

const DAY = 86_400_000;
const EXT = "io.modelcontextprotocol/tasks";
const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } },
};
const dir = mkdtempSync(join(tmpdir(), "mcpgen-task-quotas-"));
const stops: (() => Promise<void>)[] = [];

test.after.each(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

interface Running {
  server: McpServer;
  url: URL;
  errors: Error[];
}

async function start(
  tasks: NonNullable<Parameters<typeof createEverythingServer>[1]>["tasks"],
  auth?: Record<string, AuthInfo>,
): Promise<Running> {
  const errors: Error[] = [];
  const noChange = async () => {};
  const server = createEverythingServer(createHandlers({ tools: noChange, prompts: noChange }), {
    tasks: { graceMs: 20, ...tasks },
    onerror: (e) => errors.push(e),
  });
  const verifier = {
    verify: async (token: string) => {
      const who = auth?.[token];
      if (who === undefined) throw new InvalidTokenError("unknown token");
      return who;
    },
  };
  const http: StreamableHttpServer = createStreamableHttpServer({
    host: "127.0.0.1",
    port: 0,
    onsession: async (t) => void (await server.connect(t)),
    ...(auth !== undefined
      ? {
          auth: createResourceServer({
            resource: "http://127.0.0.1/mcp",
            authorizationServers: ["https://as.example"],
            verifier,
          }),
        }
      : {}),
  });
  const url = await http.listen();
  stops.push(() => http.close());
  return { server, url, errors };
}

/** The JSON-RPC response in a reply, JSON or SSE. */
async function reply(res: Response): Promise<any> {
  const text = await res.text();
  if ((res.headers.get("content-type") ?? "").startsWith("application/json")) return JSON.parse(text);
  const messages = text
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)));
  const response = messages.find((m) => "id" in m && !("method" in m));
  if (response === undefined) throw new Error(`no response in ${res.status} ${text}`);
  return response;
}

interface Session {
  sid: string;
  call(method: string, params: object): Promise<any>;
  /** HTTP DELETE: the client ends the session. */
  end(): Promise<number>;
}

async function session(url: URL, token?: string): Promise<Session> {
  const base: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  const init = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: { tasks: {} }, clientInfo: { name: "quota", version: "1" } },
  };
  const first = await fetch(url, { method: "POST", headers: base, body: JSON.stringify(init) });
  const sid = first.headers.get("mcp-session-id")!;
  assert.ok((await reply(first)).result, "initialized");
  const headers = { ...base, "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" };
  assert.is(
    (
      await fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      })
    ).status,
    202,
  );
  let id = 1;
  return {
    sid,
    call: async (method, params) =>
      reply(
        await fetch(url, {
          method: "POST",
          headers,
          body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params }),
        }),
      ),
    end: async () => (await fetch(url, { method: "DELETE", headers })).status,
  };
}

let modernId = 1;
/** A 2026-07-28 tools/call (no session, no authorization) of a minute-long computation. */
async function modernTask(url: URL): Promise<any> {
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "slow_compute",
  };
  const body = {
    jsonrpc: "2.0",
    id: modernId++,
    method: "tools/call",
    params: { name: "slow_compute", arguments: { seconds: 60 }, _meta: MODERN_META },
  };
  return reply(await fetch(url, { method: "POST", headers, body: JSON.stringify(body) }));
}

const longTask = (s: Session) =>
  s.call("tools/call", { name: "slow_compute", arguments: { seconds: 60 }, task: { ttl: DAY } });

/** `n` task calls from `s`, in order: the created tasks and the errors. */
async function flood(s: Session, n: number): Promise<{ created: any[]; refused: any[] }> {
  const created: any[] = [];
  const refused: any[] = [];
  for (let i = 0; i < n; i++) {
    const r = await longTask(s);
    if (r.result !== undefined) created.push(r.result.task);
    else refused.push(r.error);
  }
  return { created, refused };
}

const stores: [string, () => Promise<TaskStore & { readonly size: number }>][] = [
  ["memory", async () => new MemoryTaskStore({ maxTasks: 40 })],
  [
    "sqlite",
    async () => {
      const store = await openSqliteTaskStore(join(dir, `quota-${Date.now()}.db`), { maxTasks: 40 });
      stops.push(async () => store.close());
      return store;
    },
  ],
];

for (const [name, makeStore] of stores) {
  test(`${name}: one session's day-long flood trips its own quota; other sessions and 2026 calls still get tasks; DELETE releases its tasks`, async () => {
    const store = await makeStore();
    // The operator caps retention at 10 minutes, whatever the caller asks.
    const { server, url, errors } = await start({ store, maxTtlMs: 600_000 });
    const a = await session(url);
    const b = await session(url);
    // More calls than the whole store holds: before the quotas this filled it for a day.
    const { created, refused } = await flood(a, 41);
    assert.is(created.length, 4, "the default quota is a tenth of maxTasks (40)");
    assert.equal(
      created.map((t) => t.ttl),
      [600_000, 600_000, 600_000, 600_000],
      "the server's maxTtlMs clamps the requested day",
    );
    assert.is(refused.length, 37);
    for (const e of refused) assert.equal([e.code, e.data], [-32603, { limit: "maxTasksPerOwner", max: 4 }]);
    assert.match(refused[0].message, /at most 4 of one caller's tasks/);

    const other = await longTask(b);
    assert.is(
      other.result?.task?.status,
      "working",
      `another session still gets a task: ${JSON.stringify(other.error)}`,
    );
    const modern = await modernTask(url);
    assert.is(
      modern.result?.resultType,
      "task",
      `a 2026-07-28 call still becomes a task: ${JSON.stringify(modern.error)}`,
    );
    assert.is(store.size, 6);
    assert.is(server.legacyTasks!.size, 5, "a's four handlers and b's one run");

    assert.is(await a.end(), 200);
    for (let i = 0; i < 100 && store.size > 2; i++) await new Promise((r) => setTimeout(r, 10));
    assert.is(store.size, 2, "the deleted session's tasks left the store: only b's and the 2026 one remain");
    assert.is(server.legacyTasks!.size, 1, "and its handlers stopped");
    assert.is(
      (await b.call("tasks/get", { taskId: other.result.task.taskId })).result.status,
      "working",
      "b's task is untouched",
    );
    assert.is((await b.call("tasks/get", { taskId: created[0].taskId })).error.code, -32602);
    assert.equal(errors, []);
  });
}

test("the 2026-07-28 callers without authorization share one quota, which never reaches a session's", async () => {
  const store = new MemoryTaskStore({ maxTasks: 40 });
  const { url } = await start({ store });
  const results = [];
  for (let i = 0; i < 6; i++) results.push(await modernTask(url));
  assert.equal(
    results.map((r) => r.result?.resultType ?? r.error.data.limit),
    ["task", "task", "task", "task", "maxTasksPerOwner", "maxTasksPerOwner"],
  );
  const s = await session(url);
  assert.is((await longTask(s)).result?.task?.status, "working");
});

test("running handlers: one session's quota (maxRunningPerOwner) trips before the era's maxRunning", async () => {
  const { url } = await start({ maxRunning: 10, maxRunningPerOwner: 2 });
  const a = await session(url);
  const b = await session(url);
  const { created, refused } = await flood(a, 4);
  assert.is(created.length, 2);
  for (const e of refused) assert.equal([e.code, e.data], [-32603, { limit: "maxRunningPerOwner", max: 2 }]);
  // The quota counts handlers, not records: a finished task leaves room for the next.
  const quick = (await b.call("tools/call", { name: "slow_compute", arguments: { seconds: 0 }, task: {} })).result.task;
  assert.is(
    (await b.call("tasks/result", { taskId: quick.taskId })).result.content[0].text,
    "Computed result after 0s",
  );
  const more = await flood(b, 3);
  assert.equal([more.created.length, more.refused[0]?.data?.limit], [2, "maxRunningPerOwner"]);
});

test("behind an authorization guard the quota is the principal's across its sessions, and its tasks outlive a deleted session", async () => {
  const store = new MemoryTaskStore({ maxTasks: 40 });
  const { url } = await start(
    { store },
    { alice: { subject: "alice", clientId: "app", scopes: [] }, bob: { subject: "bob", clientId: "app", scopes: [] } },
  );
  const a1 = await session(url, "alice");
  const a2 = await session(url, "alice");
  const bob = await session(url, "bob");
  assert.is((await flood(a1, 3)).created.length, 3);
  const second = await flood(a2, 3);
  assert.is(second.created.length, 1, "a second session of the same principal shares its quota");
  assert.equal(second.refused[0].data, { limit: "maxTasksPerOwner", max: 4 });
  assert.is((await longTask(bob)).result?.task?.status, "working");
  assert.is(await a1.end(), 200);
  await new Promise((r) => setTimeout(r, 50));
  assert.is(store.size, 5, "alice's tasks stay: she can come back");
  assert.is((await a2.call("tasks/list", {})).result.tasks.length, 4);
  assert.is((await longTask(a2)).error?.data?.limit, "maxTasksPerOwner", "and still count against her");
});

test.run();
