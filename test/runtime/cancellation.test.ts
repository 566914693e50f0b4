import { test } from "uvu";
import * as assert from "uvu/assert";
import { ConnectionClosedError, RequestTimeoutError } from "@mcpgen/runtime";
import { Session, type SessionPolicy } from "@mcpgen/runtime/internal";
import { latest } from "./helpers/binding.js";
import { rejection, settle, sleep, withRawPeer } from "./helpers/peer.js";

function setup(policy?: SessionPolicy) {
  const [t, peer] = withRawPeer();
  const errors: Error[] = [];
  const session = new Session({
    transport: t,
    side: "client",
    binding: latest,
    policy,
    onerror: (e) => errors.push(e),
  });
  void t.start();
  return { session, peer, errors };
}

test("aborting sends notifications/cancelled and rejects with the signal's reason", async () => {
  const { session, peer } = setup();
  const ac = new AbortController();
  const p = session.request("tools/list", undefined, { signal: ac.signal });
  const m = await peer.next();
  ac.abort(new Error("user gave up"));
  const e = await rejection(p);
  assert.is(e.message, "user gave up");
  assert.equal(await peer.next(), {
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: m.id, reason: "user gave up" },
  });
  assert.is(session.pendingCount, 0);
});

test("an already-aborted signal rejects without sending anything", async () => {
  const { session, peer } = setup();
  const ac = new AbortController();
  ac.abort();
  const e = await rejection(session.request("tools/list", undefined, { signal: ac.signal }));
  assert.is(e.name, "AbortError");
  await settle();
  assert.is(peer.inbox.length, 0);
});

test("a response after cancel is ignored silently", async () => {
  const { session, peer, errors } = setup();
  const ac = new AbortController();
  const p = session.request("tools/list", undefined, { signal: ac.signal });
  const m = await peer.next();
  ac.abort();
  await rejection(p);
  await peer.next(); // the cancellation
  await peer.send({ jsonrpc: "2.0", id: m.id, result: { tools: [] } });
  await settle();
  assert.is(errors.length, 0, "late response is expected, not an error");
});

test("cancel after the response changes nothing", async () => {
  const { session, peer } = setup();
  const ac = new AbortController();
  const p = session.request("tools/list", undefined, { signal: ac.signal });
  const m = await peer.next();
  await peer.send({ jsonrpc: "2.0", id: m.id, result: { tools: [] } });
  assert.equal(await p, { tools: [] });
  ac.abort();
  await settle();
  assert.is(peer.inbox.length, 0, "no cancellation for a finished request");
});

test("initialize is never cancelled on the wire (policy), but the caller is released", async () => {
  const policy: SessionPolicy = {
    checkOutgoing() {},
    checkInbound: () => undefined,
    acceptNotification: () => true,
    cancellable: (m) => m !== "initialize",
  };
  const { session, peer } = setup(policy);
  const ac = new AbortController();
  const p = session.request(
    "initialize",
    { protocolVersion: "x", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    { signal: ac.signal, timeout: 0 },
  );
  await peer.next();
  ac.abort();
  await rejection(p);
  await settle();
  assert.is(peer.inbox.length, 0);
  const t = session.request("initialize", {}, { timeout: 20 });
  await peer.next();
  assert.instance(await rejection(t), RequestTimeoutError);
  await settle();
  assert.is(peer.inbox.length, 0);
});

test("timeout rejects with RequestTimeoutError, cancels on the wire, late response ignored", async () => {
  const { session, peer, errors } = setup();
  const p = session.request("tools/list", undefined, { timeout: 20 });
  const m = await peer.next();
  const e = await rejection(p);
  assert.instance(e, RequestTimeoutError);
  assert.is(e.method, "tools/list");
  const c = await peer.next();
  assert.is(c.method, "notifications/cancelled");
  assert.is(c.params.requestId, m.id);
  await peer.send({ jsonrpc: "2.0", id: m.id, result: { tools: [] } });
  await settle();
  assert.is(errors.length, 0);
});

test("progress is routed to the caller's onprogress by a unique token; non-increasing and unknown tokens dropped", async () => {
  const { session, peer } = setup();
  const a: number[] = [];
  const b: number[] = [];
  const pa = session.request(
    "tools/call",
    { name: "a", _meta: { keep: 1 } },
    { onprogress: (p) => void a.push(p.progress) },
  );
  const pb = session.request("tools/call", { name: "b" }, { onprogress: (p) => void b.push(p.progress) });
  const ma = await peer.next();
  const mb = await peer.next();
  assert.is(ma.params._meta.keep, 1, "caller's _meta kept");
  const ta = ma.params._meta.progressToken;
  const tb = mb.params._meta.progressToken;
  assert.ok(ta !== undefined && tb !== undefined && ta !== tb);
  for (const [token, progress] of [
    [ta, 1],
    [tb, 5],
    [ta, 2],
    [ta, 2],
    [ta, 1.5],
    ["nope", 9],
    [tb, 6],
  ] as const) {
    await peer.send({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: token, progress, total: 10 },
    });
  }
  await peer.send({ jsonrpc: "2.0", id: ma.id, result: { content: [] } });
  await peer.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: ta, progress: 3 } });
  await peer.send({ jsonrpc: "2.0", id: mb.id, result: { content: [] } });
  await Promise.all([pa, pb]);
  assert.equal(a, [1, 2]);
  assert.equal(b, [5, 6]);
});

test("resetTimeoutOnProgress keeps a request alive; maxTotalTimeout still ends it", async () => {
  const { session, peer } = setup();
  const timeout = 100;
  const kept = session.request("tools/call", { name: "x" }, { timeout, resetTimeoutOnProgress: true, onprogress() {} });
  const m = await peer.next();
  const start = Date.now();
  for (let i = 1; Date.now() - start < 2.5 * timeout; i++) {
    await sleep(5);
    await peer.send({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: m.params._meta.progressToken, progress: i },
    });
  }
  // Two and a half timeouts have passed: only the resets kept it pending.
  await peer.send({ jsonrpc: "2.0", id: m.id, result: { content: [] } });
  assert.equal(await kept, { content: [] });

  // Each progress restarts a long timeout; the maximum total must still end the request.
  const capped = session.request(
    "tools/call",
    { name: "y" },
    { timeout: 2000, resetTimeoutOnProgress: true, maxTotalTimeout: 80, onprogress() {} },
  );
  const m2 = await peer.next();
  let stop = false;
  const pump = (async () => {
    for (let i = 1; i < 1000 && !stop; i++) {
      await sleep(10);
      await peer.send({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: m2.params._meta.progressToken, progress: i },
      });
    }
  })();
  const e = await rejection(capped);
  stop = true;
  await pump;
  assert.instance(e, RequestTimeoutError);
  assert.is(e.timeoutMs, 80, "ended by the maximum total, not the per-request timeout");
});

test("without resetTimeoutOnProgress, progress does not extend the timeout", async () => {
  const { session, peer } = setup();
  const p = session.request("tools/call", { name: "x" }, { timeout: 30, onprogress() {} });
  const m = await peer.next();
  const pump = (async () => {
    for (let i = 1; i < 10; i++) {
      await sleep(10);
      await peer.send({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: m.params._meta.progressToken, progress: i },
      });
    }
  })();
  assert.instance(await rejection(p), RequestTimeoutError);
  await pump;
});

test("inbound notifications/cancelled aborts the handler's signal and suppresses its response", async () => {
  const [t, peer] = withRawPeer();
  const session = new Session({ transport: t, side: "server", binding: latest });
  void t.start();
  let aborted: unknown;
  let finish!: () => void;
  session.setRequestHandler("tools/call", async (_p, ctx) => {
    ctx.signal.addEventListener("abort", () => (aborted = ctx.signal.reason));
    await new Promise<void>((r) => (finish = r));
    return { content: [] };
  });
  await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } });
  await settle();
  await peer.send({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: 1, reason: "changed my mind" },
  });
  await settle();
  assert.is(aborted, "changed my mind");
  finish();
  await settle();
  assert.is(peer.inbox.length, 0, "no response after cancellation");
  // cancelling something unknown or finished is tolerated
  await peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
  await peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: {} });
  session.setRequestHandler("tools/list", () => ({ tools: [] }));
  await peer.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  assert.is((await peer.next()).id, 2);
});

test("a handler that never reads signal gets no AbortController but still sees ctx.cancelled", async () => {
  const [t, peer] = withRawPeer();
  const session = new Session({ transport: t, side: "server", binding: latest });
  void t.start();
  let ctxRef: any;
  let finish!: () => void;
  session.setRequestHandler("tools/call", async (_p, ctx) => {
    ctxRef = ctx;
    await new Promise<void>((r) => (finish = r));
    return { content: [] };
  });
  await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } });
  await settle();
  assert.is(ctxRef.controller, undefined);
  await peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
  await settle();
  assert.is(ctxRef.cancelled, true);
  assert.is(ctxRef.signal.aborted, true, "a signal read after cancellation is already aborted");
  finish();
});

test("handler sendProgress: only with a token, strictly increasing, ignored after the response", async () => {
  const [t, peer] = withRawPeer();
  const session = new Session({ transport: t, side: "server", binding: latest });
  void t.start();
  let later: any;
  const errs: string[] = [];
  session.setRequestHandler("tools/call", async (_p, ctx) => {
    await ctx.sendProgress(1, { total: 3 });
    await ctx.sendProgress(2, { message: "half" });
    await ctx.sendProgress(2).catch((e) => void errs.push(e.name));
    await ctx.sendProgress(1).catch((e) => void errs.push(e.name));
    later = ctx;
    return { content: [] };
  });
  await peer.send({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "x", _meta: { progressToken: "tok" } },
  });
  assert.equal(await peer.next(), {
    jsonrpc: "2.0",
    method: "notifications/progress",
    params: { progressToken: "tok", progress: 1, total: 3 },
  });
  assert.equal(await peer.next(), {
    jsonrpc: "2.0",
    method: "notifications/progress",
    params: { progressToken: "tok", progress: 2, message: "half" },
  });
  assert.is((await peer.next()).id, 1);
  assert.equal(errs, ["RangeError", "RangeError"]);
  await later.sendProgress(10);
  await peer.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "no token" } });
  assert.is((await peer.next()).id, 2, "no progress without a token, and none after the response");
});

test("close rejects pending requests, aborts running handlers, clears timers", async () => {
  const [t, peer] = withRawPeer();
  const session = new Session({ transport: t, side: "server", binding: latest });
  void t.start();
  let aborted = false;
  session.setRequestHandler(
    "tools/call",
    (_p, ctx) => new Promise(() => ctx.signal.addEventListener("abort", () => (aborted = true))),
  );
  await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } });
  const p1 = session.request("roots/list", undefined, { timeout: 60_000 });
  const p2 = session.request("ping", undefined, { signal: new AbortController().signal, timeout: 60_000 });
  await peer.next();
  await peer.next();
  let closed = 0;
  session.onclose = () => closed++;
  await peer.transport.close(); // the peer hangs up
  assert.instance(await rejection(p1), ConnectionClosedError);
  assert.instance(await rejection(p2), ConnectionClosedError);
  assert.ok(aborted);
  assert.is(closed, 1);
  assert.is(session.pendingCount, 0);
  assert.is(session.runningCount, 0);
  assert.instance(await rejection(session.request("ping")), ConnectionClosedError);
  assert.instance(await rejection(session.notify("notifications/initialized")), ConnectionClosedError);
  await session.close();
  assert.is(closed, 1, "onclose once");
  // If a 60 s timer leaked, this process would not exit promptly (the runner would time out).
});

test.run();
