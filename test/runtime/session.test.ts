import { test } from "uvu";
import * as assert from "uvu/assert";
import { InvalidResultError, McpError, type ProtocolBinding } from "@mcpgen/runtime";
import { Session } from "@mcpgen/runtime/internal";
import { byRevision, latest } from "./helpers/binding.js";
import { rejection, settle, withRawPeer } from "./helpers/peer.js";

function serverSession(opts: { binding?: ProtocolBinding; trustPeer?: boolean } = {}) {
  const [t, peer] = withRawPeer();
  const errors: Error[] = [];
  const session = new Session({
    transport: t,
    side: "server",
    binding: opts.binding ?? latest,
    trustPeer: opts.trustPeer,
    onerror: (e) => errors.push(e),
  });
  void t.start();
  return { session, peer, errors };
}

test("inbound request is dispatched to its handler and answered with the same id type", async () => {
  const { session, peer } = serverSession();
  session.setRequestHandler("tools/call", (p: any, ctx) => ({
    content: [{ type: "text", text: `${p.name}:${String(ctx.requestId)}` }],
  }));
  await peer.send({ jsonrpc: "2.0", id: "a1", method: "tools/call", params: { name: "x" } });
  assert.equal(await peer.next(), { jsonrpc: "2.0", id: "a1", result: { content: [{ type: "text", text: "x:a1" }] } });
  await peer.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "y" } });
  const r = await peer.next();
  assert.is(r.id, 7);
});

test("a handler replaced or removed after use is the one a later request gets", async () => {
  const { session, peer } = serverSession();
  const call = async (id: number) => {
    await peer.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "x" } });
    return peer.next();
  };
  session.setRequestHandler("tools/call", () => ({ content: [{ type: "text", text: "first" }] }));
  assert.is((await call(1)).result.content[0].text, "first");
  assert.is((await call(2)).result.content[0].text, "first");
  session.setRequestHandler("tools/call", () => ({ content: [{ type: "text", text: "second" }] }));
  assert.is((await call(3)).result.content[0].text, "second");
  session.removeRequestHandler("tools/call");
  assert.is((await call(4)).error.code, -32601);
  session.setRequestHandler("tools/call", () => ({ content: [{ type: "text", text: "third" }] }));
  assert.is((await call(5)).result.content[0].text, "third");
});

test("outgoing request resolves with the result; ids are unique and increasing", async () => {
  const { session, peer } = serverSession();
  const p1 = session.request("ping");
  const p2 = session.request("ping");
  const m1 = await peer.next();
  const m2 = await peer.next();
  assert.is(m1.method, "ping");
  assert.is.not(m1.id, m2.id);
  await peer.send({ jsonrpc: "2.0", id: m2.id, result: { b: 2 } });
  await peer.send({ jsonrpc: "2.0", id: m1.id, result: { a: 1 } });
  assert.equal(await p1, { a: 1 });
  assert.equal(await p2, { b: 2 });
  const p3 = session.request("ping");
  const m3 = await peer.next();
  assert.ok(m3.id !== m1.id && m3.id !== m2.id, "ids never reused");
  await peer.send({ jsonrpc: "2.0", id: m3.id, result: {} });
  await p3;
  assert.is(session.pendingCount, 0);
});

test('a response id of another type does not match (1 is not "1")', async () => {
  const { session, peer, errors } = serverSession();
  const p = session.request("ping", undefined, { timeout: 50 });
  const m = await peer.next();
  await peer.send({ jsonrpc: "2.0", id: String(m.id), result: {} });
  await settle();
  assert.is(errors.length, 1);
  assert.match(errors[0]!.message, /unknown id/);
  await peer.send({ jsonrpc: "2.0", id: m.id, result: {} });
  await p;
});

test("concurrent in-flight requests answered out of order", async () => {
  const { session, peer } = serverSession();
  const calls = Array.from({ length: 20 }, (_, i) => session.request("ping", { _meta: { i } }));
  const msgs = [];
  for (let i = 0; i < 20; i++) msgs.push(await peer.next());
  for (const m of msgs.reverse()) await peer.send({ jsonrpc: "2.0", id: m.id, result: { i: m.params._meta.i } });
  const results = await Promise.all(calls);
  assert.equal(
    results.map((r) => r.i),
    Array.from({ length: 20 }, (_, i) => i),
  );
});

test("inbound handlers run concurrently and may finish out of order", async () => {
  const { session, peer } = serverSession();
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  session.setRequestHandler("tools/call", async (p: any) => {
    if (p.name === "slow") await gate;
    return { content: [], name: p.name };
  });
  await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow" } });
  await peer.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "fast" } });
  assert.is((await peer.next()).id, 2);
  release();
  assert.is((await peer.next()).id, 1);
});

test("unknown-id response is dropped and reported, the session keeps working", async () => {
  const { session, peer, errors } = serverSession();
  await peer.send({ jsonrpc: "2.0", id: 999, result: {} });
  await peer.send({ jsonrpc: "2.0", id: 998, error: { code: -1, message: "nope" } });
  await settle();
  assert.is(errors.length, 2);
  assert.match(errors[1]!.message, /nope/);
  assert.is(peer.inbox.length, 0, "no reply to a response");
  const p = session.request("ping");
  const m = await peer.next();
  await peer.send({ jsonrpc: "2.0", id: m.id, result: {} });
  await p;
});

test("notifications reach their handler; unknown notifications are ignored", async () => {
  const { session, peer } = serverSession();
  const seen: unknown[] = [];
  session.setNotificationHandler("notifications/initialized", (p) => void seen.push(p));
  await peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await peer.send({ jsonrpc: "2.0", method: "notifications/whatever", params: {} });
  await settle();
  assert.equal(seen, [undefined]);
  assert.is(peer.inbox.length, 0);
});

test("unknown method, method of the wrong direction, and method without handler get -32601", async () => {
  const { session, peer } = serverSession();
  session.setRequestHandler("tools/list", () => ({ tools: [] }));
  for (const method of [
    "no/such",
    "sampling/createMessage",
    "resources/list",
    "constructor",
    "__proto__",
    "notifications/initialized",
  ]) {
    await peer.send({ jsonrpc: "2.0", id: method, method, params: {} });
    const r = await peer.next();
    assert.is(r.id, method);
    assert.is(r.error.code, -32601, method);
  }
  void session;
});

test("invalid params get -32602 with the JSON pointer of the failing value", async () => {
  const { session, peer } = serverSession();
  let called = false;
  session.setRequestHandler("tools/call", () => ((called = true), { content: [] }));
  session.setRequestHandler("initialize", () => ((called = true), {}));
  await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 42 } });
  const r = await peer.next();
  assert.is(r.error.code, -32602);
  assert.is(r.error.data.pointer, "/params/name");
  assert.match(r.error.message, /\/params\/name/);
  await peer.send({ jsonrpc: "2.0", id: 2, method: "tools/call" });
  const r2 = await peer.next();
  assert.is(r2.error.code, -32602);
  assert.is(r2.error.data.pointer, "/params");
  await peer.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: [1] });
  assert.is((await peer.next()).error.code, -32602);
  await peer.send({
    jsonrpc: "2.0",
    id: 4,
    method: "initialize",
    params: { protocolVersion: "x", capabilities: {}, clientInfo: { name: 1, version: "1" } },
  });
  const r4 = await peer.next();
  assert.is(r4.error.data.pointer, "/params/clientInfo/name");
  assert.is(called, false);
});

test("a throwing handler gives -32603 with its message and no stack; McpError keeps its code", async () => {
  const { session, peer, errors } = serverSession();
  session.setRequestHandler("tools/call", (p: any) => {
    if (p.name === "mcp") throw new McpError(-32002, "Resource not found", { uri: "x" });
    // oxlint-disable-next-line no-throw-literal -- what a handler that throws a string gets back is the point
    if (p.name === "str") throw "a string";
    throw new Error("boom");
  });
  await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "err" } });
  const r = await peer.next();
  assert.equal(r, { jsonrpc: "2.0", id: 1, error: { code: -32603, message: "boom" } });
  assert.not.match(JSON.stringify(r), /at |\.js/);
  await peer.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "mcp" } });
  assert.equal((await peer.next()).error, { code: -32002, message: "Resource not found", data: { uri: "x" } });
  await peer.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "str" } });
  assert.equal((await peer.next()).error, { code: -32603, message: "Internal error" });
  assert.is(errors.length, 2, "non-McpError crashes are reported locally");
});

test("malformed messages get -32600 (id null when unreadable) and the session survives", async () => {
  const { session, peer, errors } = serverSession();
  session.setRequestHandler("tools/list", () => ({ tools: [] }));
  const bad: [unknown, unknown][] = [
    [42, null],
    ["hello", null],
    [null, null],
    [{ jsonrpc: "2.0" }, null],
    [{ jsonrpc: "2.0", id: null, method: "tools/list" }, null],
    [{ jsonrpc: "2.0", id: true, method: "tools/list" }, null],
    [{ jsonrpc: "1.0", id: 5, method: "tools/list" }, 5],
    [{ jsonrpc: "2.0", id: 6, method: 12 }, 6],
    [{ jsonrpc: "2.0", id: 7, method: "tools/list", params: "x" }, 7],
  ];
  for (const [msg, id] of bad) {
    await peer.send(msg);
    const r = await peer.next();
    assert.is(r.id, id, JSON.stringify(msg));
    assert.ok(r.error.code === -32600 || r.error.code === -32602, JSON.stringify(r));
  }
  await peer.send({ jsonrpc: "2.0", method: 5 });
  await peer.send({ jsonrpc: "2.0", id: 1 });
  await settle();
  assert.is(peer.inbox.length, 0, "no replies to malformed notifications or responses");
  assert.ok(errors.length >= 2);
  await peer.send({ jsonrpc: "2.0", id: 8, method: "tools/list" });
  assert.equal(await peer.next(), { jsonrpc: "2.0", id: 8, result: { tools: [] } });
});

test("a duplicate in-progress request id is refused", async () => {
  const { session, peer } = serverSession();
  session.setRequestHandler("tools/call", () => new Promise(() => {}));
  await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "a" } });
  await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "b" } });
  const r = await peer.next();
  assert.is(r.error.code, -32600);
  await session.close();
});

test("invalid results reject with InvalidResultError; error responses with McpError", async () => {
  const { session, peer } = serverSession();
  const p = session.request("sampling/createMessage", { messages: [], maxTokens: 1 });
  const m = await peer.next();
  await peer.send({
    jsonrpc: "2.0",
    id: m.id,
    result: { role: "assistant", content: { type: "text", text: "x" }, model: 5 },
  });
  const e = await rejection(p);
  assert.instance(e, InvalidResultError);
  assert.is(e.method, "sampling/createMessage");
  assert.is(e.issues[0].instancePath, "/model");
  const p2 = session.request("roots/list");
  const m2 = await peer.next();
  await peer.send({ jsonrpc: "2.0", id: m2.id, result: "nope" });
  assert.instance(await rejection(p2), InvalidResultError);
  const p3 = session.request("roots/list");
  const m3 = await peer.next();
  await peer.send({ jsonrpc: "2.0", id: m3.id, error: { code: -32601, message: "Method not found", data: { x: 1 } } });
  const e3 = await rejection(p3);
  assert.instance(e3, McpError);
  assert.is(e3.code, -32601);
  assert.equal(e3.data, { x: 1 });
  const p4 = session.request("roots/list");
  const m4 = await peer.next();
  await peer.send({ jsonrpc: "2.0", id: m4.id });
  assert.instance(await rejection(p4), InvalidResultError);
});

test("trustPeer skips params and result validation", async () => {
  const { session, peer } = serverSession({ trustPeer: true });
  session.setRequestHandler("tools/call", (p: any) => ({ content: [], got: p.name }));
  await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 42 } });
  assert.is((await peer.next()).result.got, 42);
  const p = session.request("roots/list");
  const m = await peer.next();
  await peer.send({ jsonrpc: "2.0", id: m.id, result: { roots: "not an array" } });
  assert.equal(await p, { roots: "not an array" });
});

test("invalid notification params are dropped and reported", async () => {
  const { session, peer, errors } = serverSession({ binding: byRevision("2025-06-18") });
  const seen: unknown[] = [];
  session.setNotificationHandler("notifications/message", (p) => void seen.push(p));
  await peer.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: 3, data: "x" } });
  await peer.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } });
  await settle();
  assert.equal(seen, [{ level: "info", data: "x" }]);
  assert.is(errors.length, 1);
});

test("messages a handler sends carry relatedRequestId to the transport; the transport context reaches ctx", async () => {
  const [t, peer] = withRawPeer();
  const sent: [string, unknown][] = [];
  const send = t.send.bind(t);
  t.send = (m: any, o) => (sent.push([m.method ?? `response ${m.id}`, o?.relatedRequestId]), send(m, o));
  const session = new Session({ transport: t, side: "server", binding: latest });
  let seenContext: unknown;
  session.setRequestHandler("tools/call", async (_p, ctx) => {
    seenContext = ctx.transportContext;
    await ctx.sendProgress(1);
    await ctx.sendNotification("notifications/message", { level: "info", data: "x" });
    return { content: [], roots: await ctx.sendRequest("roots/list") };
  });
  void t.start();
  const onmessage = t.onmessage!;
  onmessage(
    { jsonrpc: "2.0", id: "req-1", method: "tools/call", params: { name: "x", _meta: { progressToken: 1 } } },
    { sessionId: "s1" },
  );
  assert.is((await peer.next()).method, "notifications/progress");
  assert.is((await peer.next()).method, "notifications/message");
  const rootsReq = await peer.next();
  await peer.send({ jsonrpc: "2.0", id: rootsReq.id, result: { roots: [] } });
  assert.is((await peer.next()).id, "req-1");
  assert.equal(sent, [
    ["notifications/progress", "req-1"],
    ["notifications/message", "req-1"],
    ["roots/list", "req-1"],
    ["response req-1", "req-1"],
  ]);
  assert.equal(seenContext, { sessionId: "s1" });
});

test("a transport that fails to send rejects the request (async or sync failure) and leaves nothing pending", async () => {
  for (const mode of ["async", "sync"]) {
    const [t] = withRawPeer();
    t.send = () => {
      if (mode === "sync") throw new Error("wire cut");
      return Promise.reject(new Error("wire cut"));
    };
    const session = new Session({ transport: t, side: "client", binding: latest });
    const e = await rejection(session.request("tools/list"));
    assert.is(e.message, "wire cut", mode);
    assert.is(session.pendingCount, 0);
    assert.is((await rejection(session.notify("notifications/initialized"))).message, "wire cut");
  }
});

test("a policy may choose the binding per inbound request (how a per-request era plugs in)", async () => {
  const [t, peer] = withRawPeer();
  const session = new Session({
    transport: t,
    side: "client",
    binding: latest,
    policy: {
      checkOutgoing() {},
      checkInbound: () => undefined,
      acceptNotification: () => true,
      cancellable: () => true,
      bindingFor: (_m, p) => {
        const v = (p?._meta as Record<string, unknown> | undefined)?.version;
        if (v === undefined) return latest;
        return v === "2024-11-05"
          ? byRevision("2024-11-05")
          : { code: -32022, message: "Unsupported protocol version", data: { requested: v } };
      },
    },
  });
  session.setRequestHandler("elicitation/create", () => ({ action: "accept" }));
  void t.start();
  const params = { message: "m", requestedSchema: { type: "object", properties: {} } };
  await peer.send({ jsonrpc: "2.0", id: 1, method: "elicitation/create", params });
  assert.equal((await peer.next()).result, { action: "accept" });
  await peer.send({
    jsonrpc: "2.0",
    id: 2,
    method: "elicitation/create",
    params: { ...params, _meta: { version: "2024-11-05" } },
  });
  assert.is((await peer.next()).error.code, -32601, "2024-11-05 has no elicitation");
  await peer.send({
    jsonrpc: "2.0",
    id: 3,
    method: "elicitation/create",
    params: { ...params, _meta: { version: "2099-01-01" } },
  });
  assert.equal((await peer.next()).error, {
    code: -32022,
    message: "Unsupported protocol version",
    data: { requested: "2099-01-01" },
  });
});

test("a handler returning a non-object result answers -32603 and is reported", async () => {
  const { session, peer, errors } = serverSession();
  session.setRequestHandler("tools/call", (p: any) => (p.name === "arr" ? [1] : "text") as never);
  await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "arr" } });
  assert.is((await peer.next()).error.code, -32603);
  await peer.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "str" } });
  assert.is((await peer.next()).error.code, -32603);
  assert.is(errors.length, 2);
});

test("requestWith: the reader's value settles the request, a throw rejects it, fail sees every failure and may recover", async () => {
  const { session, peer } = serverSession();
  const counted = session.requestWith("roots/list", undefined, undefined, { ok: (r) => (r.roots as unknown[]).length });
  const m1 = await peer.next();
  await peer.send({ jsonrpc: "2.0", id: m1.id, result: { roots: [{ uri: "file:///a" }, { uri: "file:///b" }] } });
  assert.is(await counted, 2);

  const thrown = session.requestWith("roots/list", undefined, undefined, {
    ok: () => {
      throw new RangeError("reader refused");
    },
  });
  const m2 = await peer.next();
  await peer.send({ jsonrpc: "2.0", id: m2.id, result: { roots: [] } });
  assert.is((await rejection(thrown)).message, "reader refused");

  const seen: unknown[] = [];
  const reader = {
    ok: () => "ok",
    fail: (e: unknown) => {
      seen.push(e);
      if (e instanceof McpError) return "recovered";
      throw e;
    },
  };
  const recovered = session.requestWith("roots/list", undefined, undefined, reader);
  const m3 = await peer.next();
  await peer.send({ jsonrpc: "2.0", id: m3.id, error: { code: -32601, message: "nope" } });
  assert.is(await recovered, "recovered");
  // An invalid result reaches fail (validated before ok), and rejects when fail rethrows.
  const invalid = session.requestWith("roots/list", undefined, undefined, reader);
  const m4 = await peer.next();
  await peer.send({ jsonrpc: "2.0", id: m4.id, result: { roots: "not a list" } });
  assert.instance(await rejection(invalid), InvalidResultError);
  assert.instance(seen[1], InvalidResultError);
  assert.is(session.pendingCount, 0);
});

test.run();
