// Hostile peers against one session, in process: untrusted values in log lines, a client's error
// inside a tool, inherited property names, oversized responses, and the per-session limits.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { PassThrough } from "node:stream";
import {
  connectMcpClient,
  createMemoryTransportPair,
  LimitError,
  McpError,
  UnreadableResponseError,
} from "@mcpgen/runtime";
import { Session } from "@mcpgen/runtime/internal";
import { StdioServerTransport } from "@mcpgen/runtime/stdio";
import { createServer } from "../../examples/everything/src/server.js";
import { bindings } from "../../examples/everything/src/mcp/bindings.js";
import { latest } from "../runtime/helpers/binding.js";
import { rawPeer, settle } from "../runtime/helpers/peer.js";

/** A value nested n levels deep, built without recursion. */
function nested(n: number): unknown {
  let v: unknown = [];
  for (let i = 0; i < n; i++) v = [v];
  return v;
}

const clientInfo = { name: "hostile-test", version: "1" };

test("a response with a deeply nested id and error.message is reported in one bounded line", async () => {
  const [t, peerT] = createMemoryTransportPair();
  const errors: Error[] = [];
  const s = new Session({ transport: t, side: "client", binding: latest, onerror: (e) => errors.push(e) });
  void t.start();
  const peer = rawPeer(peerT);
  await peer.send({ jsonrpc: "2.0", id: nested(100_000), error: { code: 1, message: nested(100_000) } });
  await peer.send({ jsonrpc: "2.0", id: 5, error: { code: 1, message: "x".repeat(1_000_000) } });
  await settle();
  assert.is(errors.length, 2);
  for (const e of errors) assert.ok(e.message.length < 1000, `bounded: ${e.message.length}`);
  assert.is(s.pendingCount, 0);
});

// Pushed notifications outside a listen stream and server-to-client requests exist only in the
// legacy era, so these two pin it.
test("a server pushing notifications/resources/updated with a deeply nested uri cannot break the client", async () => {
  const [ct, st] = createMemoryTransportPair();
  const errors: Error[] = [];
  const server = createServer({ onerror: () => {} });
  await server.connect(st);
  const client = await connectMcpClient(ct, {
    bindings: [...bindings],
    clientInfo,
    era: "legacy",
    onerror: (e) => errors.push(e),
  });
  await st.send({
    jsonrpc: "2.0",
    method: "notifications/resources/updated",
    params: { uri: nested(100_000) as string },
  });
  await settle();
  assert.ok(errors.some((e) => /resources\/updated/.test(e.message)));
  await client.ping();
  await client.close();
});

test("completion argument names are looked up as own properties only", async () => {
  const [ct, st] = createMemoryTransportPair();
  await createServer({ onerror: () => {} }).connect(st);
  const client = await connectMcpClient(ct, { bindings: [...bindings], clientInfo });
  for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"]) {
    const c = await client.complete({ type: "ref/prompt", name: "test_prompt_with_arguments" }, { name, value: "t" });
    assert.equal(c.values, [], name);
  }
  const ok = await client.complete(
    { type: "ref/prompt", name: "test_prompt_with_arguments" },
    { name: "arg1", value: "te" },
  );
  assert.equal(ok.values, ["test", "testValue1", "testing"]);
  await client.close();
});

test("a client answering sampling with an error: the tool reports it as its own failure, not the client's code", async () => {
  const [ct, st] = createMemoryTransportPair();
  const logged: Error[] = [];
  await createServer({ onerror: (e) => logged.push(e) }).connect(st);
  const client = await connectMcpClient(ct, {
    bindings: [...bindings],
    clientInfo,
    era: "legacy",
    handlers: {
      sampling: () => {
        throw new McpError(-1, "User rejected sampling request");
      },
    },
  });
  const r = await client.callTool("test_sampling", { prompt: "hi" });
  assert.is(r.isError, true);
  const text = (r.content[0] as { text: string }).text;
  assert.match(text, /client answered sampling\/createMessage with error -1: User rejected sampling request/);
  assert.ok(
    logged.some((e) => e.name === "PeerRequestError"),
    "logged on the server",
  );
  await client.close();
});

test("2026-07-28: a sampling handler that refuses abandons the input round locally; the server keeps no state", async () => {
  const [ct, st] = createMemoryTransportPair();
  await createServer({ onerror: () => {} }).connect(st);
  const client = await connectMcpClient(ct, {
    bindings: [...bindings],
    clientInfo,
    handlers: {
      sampling: () => {
        throw new McpError(-1, "User rejected sampling request");
      },
    },
  });
  assert.is(client.era, "modern");
  const err = await client.callTool("test_sampling", { prompt: "hi" }).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err instanceof McpError && err.code === -1, String(err));
  // The server is still usable: nothing was left waiting for the abandoned round.
  const ok = await client.callTool("test_simple_text", {});
  assert.is(ok.isError ?? false, false);
  await client.close();
});

test("an oversized response whose id is readable fails that request at once, not at its timeout", async () => {
  const toClient = new PassThrough();
  const fromClient = new PassThrough();
  fromClient.resume();
  const t = new StdioServerTransport({ stdin: toClient, stdout: fromClient, maxMessageBytes: 1024 });
  const errors: Error[] = [];
  const s = new Session({
    transport: t,
    side: "client",
    binding: latest,
    timeout: 30_000,
    onerror: (e) => errors.push(e),
  });
  await t.start();
  const started = Date.now();
  const pending = s.request("ping");
  toClient.write(`{"jsonrpc":"2.0","id":0,"result":{"pad":"${"x".repeat(4000)}"}}\n`);
  const e = await pending.then(
    () => undefined,
    (x: unknown) => x,
  );
  assert.instance(e, UnreadableResponseError);
  assert.match((e as Error).message, /ping could not be read: .*exceeds 1024 bytes/);
  assert.ok(Date.now() - started < 2000);
  assert.is(s.pendingCount, 0);
  // And the same for one split over many chunks, with the id after the big field.
  const second = s.request("ping");
  toClient.write(`{"jsonrpc":"2.0","result":{"pad":"`);
  for (let i = 0; i < 50; i++) toClient.write("y".repeat(100));
  toClient.write(`"},"id":1}\n`);
  assert.instance(
    await second.then(
      () => undefined,
      (x: unknown) => x,
    ),
    UnreadableResponseError,
  );
  await s.close();
});

test("maxRunningRequests: the request past the limit gets -32000 at once; maxPendingRequests refuses locally", async () => {
  const [t, peerT] = createMemoryTransportPair();
  const errors: Error[] = [];
  const s = new Session({
    transport: t,
    side: "server",
    binding: latest,
    maxRunningRequests: 2,
    maxPendingRequests: 1,
    onerror: (e) => errors.push(e),
  });
  s.setRequestHandler("ping", () => new Promise(() => {}));
  void t.start();
  const peer = rawPeer(peerT);
  for (const id of [1, 2, 3]) await peer.send({ jsonrpc: "2.0", id, method: "ping" });
  const refused = await peer.next();
  assert.is(refused.id, 3);
  assert.is(refused.error.code, -32000);
  assert.is(s.runningCount, 2);
  assert.ok(errors.some((e) => e instanceof LimitError));
  void s.request("roots/list", undefined, { timeout: 0 }).catch(() => {});
  const over = await s.request("roots/list").then(
    () => undefined,
    (x: unknown) => x,
  );
  assert.instance(over, LimitError);
  await s.close();
});

test.run();
