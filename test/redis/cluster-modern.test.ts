// Three "everything" instances sharing one Redis behind HAProxy (round-robin, no stickiness), at
// 2026-07-28: the official SDK v2 client through the balancer (every request may land on another
// instance, input-required rounds included), a requestState replayed to another instance refused,
// a change raised on one instance heard on a listen held by another, tasks read and cancelled
// through any instance, and an instance SIGKILLed while it runs a task: the task is failed with a
// clear message, a completed one stays readable, and no request hangs.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { waitExit } from "../examples/helpers/everything-process.js";
import { startCluster, type Cluster } from "./cluster.js";

const EXT = "io.modelcontextprotocol/tasks";
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions: { [EXT]: {} } },
};
let cluster!: Cluster;
let nextId = 1;

test.before(async () => {
  cluster = await startCluster(3, ["--task-lease", "600"]);
});
test.after(async () => {
  await cluster?.close();
});

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
    signal: signal ?? AbortSignal.timeout(10_000),
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: META } }),
  });
}

async function rpc(url: URL, method: string, params: Record<string, unknown>): Promise<any> {
  const res = await post(url, method, params);
  const text = await res.text();
  // A reply may come as JSON or as one SSE event.
  const line = text.startsWith("{")
    ? text
    : text
        .split("\n")
        .find((l) => l.startsWith("data: {"))
        ?.slice(6);
  if (line === undefined) throw new Error(`no JSON-RPC reply (${res.status}): ${text.slice(0, 300)}`);
  return JSON.parse(line);
}

const instance = (i: number) => cluster.instances[i]!.url;

test("the SDK v2 client is served through the balancer, input-required rounds landing on any instance", async () => {
  const client = new ClientV2({ name: "cluster", version: "1.0.0" }, {
    capabilities: { elicitation: {} },
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  } as never);
  client.setRequestHandler(
    "elicitation/create",
    async () => ({ action: "accept", content: { name: "Alice" } }) as never,
  );
  await client.connect(new HttpV2(cluster.url));
  try {
    for (let i = 0; i < 6; i++) {
      const r: any = await client.callTool({ name: "test_simple_text" });
      assert.is(r.content[0].text, "This is a simple text response for testing.");
    }
    for (let i = 0; i < 3; i++) {
      const r: any = await client.callTool({ name: "test_input_required_result_elicitation", arguments: {} });
      assert.is(r.content[0].text, "Hello, Alice!");
    }
  } finally {
    await client.close();
  }
});

test("a requestState used on one instance is refused on another", async () => {
  const first = await rpc(instance(0), "tools/call", { name: "test_input_required_result_elicitation", arguments: {} });
  assert.is(first.result.resultType, "input_required");
  const [key] = Object.keys(first.result.inputRequests);
  const retry = {
    name: "test_input_required_result_elicitation",
    arguments: {},
    requestState: first.result.requestState,
    inputResponses: { [key!]: { action: "accept", content: { name: "Bob" } } },
  };
  const ok = await rpc(instance(1), "tools/call", retry);
  assert.is(ok.result.content[0].text, "Hello, Bob!", "another instance accepts a state this one minted (shared key)");
  const replay = await rpc(instance(2), "tools/call", retry);
  assert.is(replay.error?.code, -32602);
  assert.match(replay.error.message, /already used/);
});

test("a tools list change raised on one instance reaches a listen held by another", async () => {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), 10_000);
  try {
    const listen = await post(
      instance(0),
      "subscriptions/listen",
      { notifications: { toolsListChanged: true } },
      ctrl.signal,
    );
    assert.is(listen.status, 200);
    const reader = listen.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    // The listen is open once its acknowledgement arrived; then the change is raised elsewhere.
    while (!text.includes("notifications/subscriptions/acknowledged"))
      text += decoder.decode((await reader.read()).value, { stream: true });
    const raised = await rpc(instance(2), "tools/call", { name: "test_trigger_tool_change", arguments: {} });
    assert.ok(raised.result, JSON.stringify(raised));
    while (!text.includes("notifications/tools/list_changed")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`listen ended: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
    ctrl.abort();
  }
});

test("a task is read and cancelled through any instance", async () => {
  const created = (await rpc(instance(0), "tools/call", { name: "slow_compute", arguments: { seconds: 60 } })).result;
  assert.is(created.resultType, "task");
  const seen = await rpc(instance(1), "tasks/get", { taskId: created.taskId });
  assert.is(seen.result.status, "working");
  assert.is((await rpc(instance(2), "tasks/cancel", { taskId: created.taskId })).result.resultType, "complete");
  for (const i of [0, 1, 2])
    assert.is((await rpc(instance(i), "tasks/get", { taskId: created.taskId })).result.status, "cancelled");
});

test("task input answered through another instance reaches the run; its status reaches a listen held by a third", async () => {
  const created = (await rpc(instance(0), "tools/call", { name: "confirm_delete", arguments: { filename: "a.txt" } }))
    .result;
  assert.is(created.resultType, "task");
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), 10_000);
  try {
    const listen = await post(
      instance(1),
      "subscriptions/listen",
      { notifications: { taskIds: [created.taskId] } },
      ctrl.signal,
    );
    const reader = listen.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes("notifications/subscriptions/acknowledged"))
      text += decoder.decode((await reader.read()).value, { stream: true });
    let waiting: any;
    for (let i = 0; i < 100; i++) {
      waiting = (await rpc(instance(2), "tasks/get", { taskId: created.taskId })).result;
      if (waiting.status === "input_required") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.is(waiting.status, "input_required");
    const [key] = Object.keys(waiting.inputRequests);
    await rpc(instance(2), "tasks/update", {
      taskId: created.taskId,
      inputResponses: { [key!]: { action: "accept", content: { confirm: true } } },
    });
    let done: any;
    for (let i = 0; i < 100; i++) {
      done = (await rpc(instance(1), "tasks/get", { taskId: created.taskId })).result;
      if (done.status === "completed") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal([done.status, done.result?.content?.[0]?.text], ["completed", "Deleted a.txt"]);
    while (!/"method":"notifications\/tasks"[^\n]*"status":"completed"/.test(text)) {
      const { value, done: ended } = await reader.read();
      if (ended) throw new Error(`listen ended: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
    ctrl.abort();
  }
});

test("SIGKILL an instance running a task: the task fails within the lease, a completed task stays readable, nothing hangs", async () => {
  const victim = cluster.instances[0]!;
  const done = (
    await rpc(victim.url, "tools/call", { name: "slow_compute", arguments: { seconds: 0.3, label: "quick" } })
  ).result;
  const doomed = (await rpc(victim.url, "tools/call", { name: "slow_compute", arguments: { seconds: 60 } })).result;
  assert.equal([done.resultType, doomed.resultType], ["task", "task"]);
  for (let i = 0; i < 50; i++) {
    if ((await rpc(cluster.url, "tasks/get", { taskId: done.taskId })).result.status === "completed") break;
    await new Promise((r) => setTimeout(r, 50));
  }
  victim.child.kill("SIGKILL");
  assert.equal(await waitExit(victim.child, 5000), { code: null, signal: "SIGKILL" });
  const started = Date.now();
  let status = "working";
  let last: any;
  while (status === "working" && Date.now() - started < 5000) {
    // Through the balancer: whichever instance answers, none may hang.
    last = (await rpc(cluster.url, "tasks/get", { taskId: doomed.taskId })).result;
    status = last.status;
    if (status === "working") await new Promise((r) => setTimeout(r, 100));
  }
  assert.is(status, "failed");
  assert.match(last.statusMessage, /stopped before it finished/);
  assert.is(last.error.code, -32603);
  const kept = (await rpc(cluster.url, "tasks/get", { taskId: done.taskId })).result;
  assert.equal([kept.status, kept.result.content[0].text], ["completed", "Computed quick after 0.3s"]);
  // The survivors keep serving through the balancer.
  for (let i = 0; i < 4; i++)
    assert.is(
      (await rpc(cluster.url, "tools/call", { name: "test_simple_text", arguments: {} })).result.content[0].text,
      "This is a simple text response for testing.",
    );
});

test.run();
