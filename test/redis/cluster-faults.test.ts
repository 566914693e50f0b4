// Redis stopped and restarted under load: two "everything" instances behind HAProxy keep answering
// every request (a success, or an error that says Redis is unavailable) within a bound, neither
// crashes, and what needs Redis works again once it is back.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startCluster, type Cluster } from "./cluster.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {
    elicitation: {},
    extensions: { "io.modelcontextprotocol/tasks": {} },
  },
};
let cluster!: Cluster;
let nextId = 1;

test.before(async () => {
  cluster = await startCluster(2);
});
test.after(async () => {
  await cluster?.close();
});

interface Outcome {
  readonly ok: boolean;
  readonly status: number;
  readonly body: string;
}

/** One request through the balancer; a hang (no answer in 5 s) is a failure of the test. */
async function call(method: string, params: Record<string, unknown>): Promise<Outcome> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  };
  const name = (params.name ?? params.taskId) as string | undefined;
  if (name !== undefined) headers["mcp-name"] = name;
  const res = await fetch(cluster.url, {
    method: "POST",
    headers,
    signal: AbortSignal.timeout(5000),
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: META } }),
  });
  const body = await res.text();
  return { ok: res.status === 200 && body.includes('"result"'), status: res.status, body };
}

/** What needs Redis: a task's status, and a retry whose requestState must be claimed. */
async function needsRedis(): Promise<Outcome[]> {
  const first = await call("tools/call", { name: "test_input_required_result_elicitation", arguments: {} });
  const out: Outcome[] = [first];
  const m = /"requestState":"([^"]+)"/.exec(first.body);
  if (m !== null) {
    const key = /"inputRequests":\{"([^"]+)"/.exec(first.body)![1]!;
    out.push(
      await call("tools/call", {
        name: "test_input_required_result_elicitation",
        arguments: {},
        requestState: m[1],
        inputResponses: { [key]: { action: "accept", content: { name: "Ann" } } },
      }),
    );
  }
  out.push(await call("tasks/get", { taskId: "no-such-task" }));
  return out;
}

test("Redis stopped and restarted under load: every request is answered, no instance crashes, service resumes", async () => {
  const outcomes: Outcome[] = [];
  let stop = false;
  const load = (async () => {
    while (!stop) {
      const batch = await Promise.all([call("tools/call", { name: "test_simple_text", arguments: {} }), needsRedis()]);
      outcomes.push(batch[0], ...batch[1]);
    }
  })();
  await new Promise((r) => setTimeout(r, 300));
  await cluster.redis.stop();
  const during = outcomes.length;
  await new Promise((r) => setTimeout(r, 800));
  const whileDown = outcomes.slice(during);
  await cluster.redis.start();
  // The clients reconnect within about a second (backoff capped at 1 s).
  await new Promise((r) => setTimeout(r, 1500));
  stop = true;
  await load;

  assert.ok(whileDown.length > 0, "requests kept being answered while Redis was down");
  // Plain calls need no Redis: they keep succeeding.
  assert.ok(whileDown.some((o) => o.ok && o.body.includes("simple text response")));
  // What needs Redis got an error saying so, not a hang and not a success it could not check.
  const refused = whileDown.filter((o) => !o.ok);
  assert.ok(refused.length > 0);
  for (const o of refused) {
    assert.ok(
      o.status === 503 ||
        /"code":-32603,"message":"Internal error: the server's shared store did not answer/.test(o.body),
      `${o.status} ${o.body.slice(0, 200)}`,
    );
    assert.not.match(o.body, /127\.0\.0\.1|redis:/, "the client learns nothing of where Redis is");
  }
  for (const p of cluster.instances) assert.is(p.child.exitCode, null, `an instance crashed: ${p.stderr()}`);
  const after = await needsRedis();
  assert.ok(after[0]!.ok && after[1]!.ok, `service resumed: ${after.map((o) => o.body.slice(0, 200)).join(" | ")}`);
  assert.match(after[2]!.body, /"error"/, "tasks/get of an unknown task is the usual error again");
});

test("a legacy session's streamed reply is still delivered while Redis is down; a resume then gets 503, and is served again after", async () => {
  const url = cluster.instances[1]!.url;
  const base = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const init = await fetch(url, {
    method: "POST",
    headers: base,
    signal: AbortSignal.timeout(5000),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "faults", version: "1" } },
    }),
  });
  const session = init.headers.get("mcp-session-id")!;
  await init.text();
  const h = { ...base, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
  await (
    await fetch(url, {
      method: "POST",
      headers: h,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    })
  ).text();
  // Progress first, so the reply is an SSE stream whose events go to the event store.
  const progress = (id: number) =>
    fetch(url, {
      method: "POST",
      headers: h,
      signal: AbortSignal.timeout(5000),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "test_tool_with_progress", arguments: {}, _meta: { progressToken: id } },
      }),
    }).then((r) => r.text());
  const before = await progress(1);
  const eventId = /^id: (.+)$/m.exec(before)?.[1];
  assert.ok(eventId, before);
  await cluster.redis.stop();
  try {
    const during = await progress(2);
    assert.match(during, /"id":2,"result"/, "the reply arrives although it could not be stored");
    const resume = await fetch(url, {
      method: "GET",
      headers: { ...h, "last-event-id": eventId! },
      signal: AbortSignal.timeout(5000),
    });
    assert.is(resume.status, 503);
    await resume.text();
  } finally {
    await cluster.redis.start();
  }
  // Back: a new event is stored again, so a resume from it is served (200), not refused.
  let resumed = 0;
  for (let i = 0; i < 60 && resumed !== 200; i++) {
    const text = await progress(3 + i);
    const id = /^id: (.+)$/m.exec(text)?.[1];
    if (id !== undefined) {
      const ctrl = new AbortController();
      const res = await fetch(url, {
        method: "GET",
        headers: { ...h, "last-event-id": id },
        signal: ctrl.signal,
      }).catch(() => undefined);
      resumed = res?.status ?? 0;
      ctrl.abort();
    }
    if (resumed !== 200) await new Promise((r) => setTimeout(r, 100));
  }
  assert.is(resumed, 200, "events are stored (resumable) again");
  for (const p of cluster.instances) assert.is(p.child.exitCode, null, `an instance crashed: ${p.stderr()}`);
});

test.run();
