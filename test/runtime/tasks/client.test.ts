// A 2026-07-28 client that declared the tasks extension waits for a CreateTaskResult's task:
// polls tasks/get, answers task-phase input once per key through tasks/update, returns the
// inlined result, throws the inlined error, and cancels the task when the caller gives up.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { InvalidResultError, McpError, TaskCancelledError } from "@mcpgen/runtime";
import { connectModernClient } from "@mcpgen/runtime/internal";
import { dual } from "../helpers/binding.js";
import { scriptedPeer, type Answer } from "../modern/peer.js";

const EXT = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const clientInfo = { name: "tasks-test", version: "1.0.0" };
const task = (status: string, extra: object = {}) => ({
  resultType: "complete",
  taskId: "t1",
  status,
  createdAt: "2026-01-01T00:00:00Z",
  lastUpdatedAt: "2026-01-01T00:00:00Z",
  ttlMs: 60_000,
  pollIntervalMs: 20,
  ...extra,
});
const created = { ...task("working"), resultType: "task" };

async function connect(answer: Answer, capabilities: Record<string, object> = { elicitation: {}, ...EXT }) {
  const peer = await scriptedPeer(answer);
  const client = await connectModernClient({
    transport: peer.transport,
    bindings: dual,
    clientInfo,
    timeout: 2000,
    capabilities,
    handlers: {
      "elicitation/create": (p: { message: string }) => ({ action: "accept", content: { name: p.message } }),
    },
  });
  return { peer, client };
}

test("polls to completion, answering each input request once, and returns the inlined result", async () => {
  let polls = 0;
  const { peer, client } = await connect((m) => {
    if (m.method === "tools/call") return created;
    if (m.method === "tasks/update") return { resultType: "complete" };
    if (m.method !== "tasks/get") return undefined;
    polls++;
    if (polls === 1) return task("working");
    const answered = peer.requests("tasks/update").length > 0;
    // The server still lists the request on one poll after the answer: the client must not answer twice.
    if (polls <= 3 || !answered)
      return task("input_required", {
        inputRequests: {
          q: {
            method: "elicitation/create",
            params: { message: "who", requestedSchema: { type: "object", properties: {} } },
          },
        },
      });
    return task("completed", { result: { content: [{ type: "text", text: "done" }] } });
  });
  const r = await client.request("tools/call", { name: "slow", arguments: {} });
  assert.equal(r.content, [{ type: "text", text: "done" }]);
  assert.is(r.resultType, "complete");
  const updates = peer.requests("tasks/update");
  assert.is(updates.length, 1);
  assert.equal(updates[0]!.params!.inputResponses, { q: { action: "accept", content: { name: "who" } } });
  assert.equal(peer.requests("tasks/get")[0]!.params!.taskId, "t1");
});

test("a failed task throws its JSON-RPC error; a cancelled one TaskCancelledError", async () => {
  let status = "failed";
  const { client } = await connect((m) => {
    if (m.method === "tools/call") return created;
    if (m.method === "tasks/get")
      return task(status, status === "failed" ? { error: { code: -32603, message: "boom", data: { x: 1 } } } : {});
    return undefined;
  });
  const e = await client.request("tools/call", { name: "x" }).catch((x: unknown) => x);
  assert.instance(e, McpError);
  assert.equal([(e as McpError).code, (e as McpError).message, (e as McpError).data], [-32603, "boom", { x: 1 }]);
  status = "cancelled";
  assert.instance(await client.request("tools/call", { name: "x" }).catch((x: unknown) => x), TaskCancelledError);
  status = "exploded";
  assert.instance(await client.request("tools/call", { name: "x" }).catch((x: unknown) => x), InvalidResultError);
});

test("giving up (abort) cancels the task on the server", async () => {
  const { peer, client } = await connect((m) => {
    if (m.method === "tools/call") return created;
    if (m.method === "tasks/get") return task("working");
    if (m.method === "tasks/cancel") return { resultType: "complete" };
    return undefined;
  });
  const ctrl = new AbortController();
  const call = client.request("tools/call", { name: "x" }, { signal: ctrl.signal }).catch((x: unknown) => x);
  await new Promise((r) => setTimeout(r, 60));
  ctrl.abort(new Error("enough"));
  assert.is(((await call) as Error).message, "enough");
  assert.equal(
    peer.requests("tasks/cancel").map((m) => m.params!.taskId),
    ["t1"],
  );
});

test("a task result to a client that did not declare the extension is an invalid result", async () => {
  const { client } = await connect((m) => (m.method === "tools/call" ? created : undefined), { elicitation: {} });
  assert.instance(await client.request("tools/call", { name: "x" }).catch((x: unknown) => x), InvalidResultError);
});

test.run();
