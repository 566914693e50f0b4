// Multi round-trip requests: handlers re-run per retry, answers by key, requestState integrity
// (tamper, forge, expiry, wrong method/params, replay), bad inputResponses, capability gating.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { RequestStateCodec, paramsDigest } from "@mcpgen/runtime/internal";
import { connect, runs, server } from "./fixture.js";

const accept = (content: object) => ({ action: "accept", content });

test("a handler asking twice: three rounds, each re-running it, answers carried in requestState", async () => {
  const s = server();
  const peer = await connect(s);
  runs.ask = 0;
  const r1 = (await peer.call("tools/call", { name: "ask", arguments: {} })).result;
  assert.is(r1.resultType, "input_required");
  assert.equal(Object.keys(r1.inputRequests), ["name"]);
  assert.is(r1.inputRequests.name.method, "elicitation/create");
  assert.is(r1.ttlMs, undefined);
  assert.type(r1.requestState, "string");
  const r2 = (
    await peer.call("tools/call", {
      name: "ask",
      arguments: {},
      inputResponses: { name: accept({ name: "Alice" }) },
      requestState: r1.requestState,
    })
  ).result;
  assert.is(r2.resultType, "input_required");
  assert.equal(Object.keys(r2.inputRequests), ["elicitation-2"]);
  assert.is.not(r2.requestState, r1.requestState);
  // Only the new answer is sent: the first comes back from the signed state.
  const r3 = (
    await peer.call("tools/call", {
      name: "ask",
      arguments: {},
      inputResponses: { "elicitation-2": accept({ color: "blue" }) },
      requestState: r2.requestState,
    })
  ).result;
  assert.is(r3.resultType, "complete");
  assert.is(r3.content[0].text, "Alice likes blue");
  assert.is(runs.ask, 3);
  assert.is(peer.seen.length, 0, "no server->client requests on the wire");
  await s.close();
});

test("calls made together share one round; answers without requestState are accepted", async () => {
  const s = server();
  const peer = await connect(s);
  const r1 = (await peer.call("tools/call", { name: "parallel", arguments: {} })).result;
  assert.equal(Object.keys(r1.inputRequests), ["elicitation-1", "sampling-2", "roots-3"]);
  assert.equal(r1.inputRequests["roots-3"], { method: "roots/list", params: {} });
  const inputResponses = {
    "elicitation-1": { action: "decline" },
    "sampling-2": { role: "assistant", content: { type: "text", text: "yo" }, model: "m" },
    "roots-3": { roots: [{ uri: "file:///a" }] },
    extra: { whatever: true },
  };
  const r2 = (await peer.call("tools/call", { name: "parallel", arguments: {}, inputResponses })).result;
  assert.is(r2.content[0].text, "decline/yo/1");
  await s.close();
});

test("missing or wrong keys re-prompt; malformed answers and inputResponses are -32602", async () => {
  const s = server();
  const peer = await connect(s);
  const wrong = (await peer.call("tools/call", { name: "ask", arguments: {}, inputResponses: { nope: accept({}) } }))
    .result;
  assert.is(wrong.resultType, "input_required");
  // Keys that name Object.prototype members are just keys.
  const proto = (
    await peer.call("tools/call", {
      name: "ask",
      arguments: {},
      inputResponses: JSON.parse('{"__proto__": {"x": 1}, "constructor": {}}'),
    })
  ).result;
  assert.is(proto.resultType, "input_required");
  // Not a map of objects: the params validator's (every entry, read or not).
  let r = await peer.call("tools/call", { name: "ask", arguments: {}, inputResponses: { name: 12345 } });
  assert.is(r.error.code, -32602);
  assert.is(r.error.data.pointer, "/params/inputResponses/name");
  // An object that is no ElicitResult: the MRTR layer's, when the handler reads it.
  r = await peer.call("tools/call", { name: "ask", arguments: {}, inputResponses: { name: { action: 1 } } });
  assert.is(r.error.code, -32602);
  assert.match(r.error.message, /inputResponses\["name"\]\/action/);
  r = await peer.call("tools/call", { name: "ask", arguments: {}, inputResponses: { name: accept({ name: 5 }) } });
  assert.is(r.error.code, -32602, "accepted content is checked against requestedSchema");
  r = await peer.call("tools/call", { name: "ask", arguments: {}, inputResponses: null });
  assert.is(r.error.code, -32602);
  r = await peer.call("tools/call", { name: "ask", arguments: {}, requestState: 42 });
  assert.is(r.error.code, -32602);
  await s.close();
});

test("requestState: tampered, forged, expired, replayed, or for other params/method is refused with -32602", async () => {
  const key = Buffer.alloc(32, 7);
  const s = server({ requestState: { key } });
  const peer = await connect(s);
  const first = async () =>
    (await peer.call("tools/call", { name: "ask", arguments: {} })).result.requestState as string;
  const retry = (state: string, over: object = {}) =>
    peer.call("tools/call", {
      name: "ask",
      arguments: {},
      inputResponses: { name: accept({ name: "A" }) },
      requestState: state,
      ...over,
    });
  const state = await first();
  const body = state.slice(3, state.lastIndexOf("."));
  const decoded = JSON.parse(Buffer.from(body, "base64url").toString());
  decoded.a = { name: accept({ name: "Mallory" }) };
  const tampered = `v1.${Buffer.from(JSON.stringify(decoded)).toString("base64url")}${state.slice(state.lastIndexOf("."))}`;
  for (const bad of [state + "-TAMPERED", tampered, "v1.x.y", "nonsense"]) {
    const r = await retry(bad);
    assert.is(r.error.code, -32602, bad.slice(0, 20));
  }
  const forged = await new RequestStateCodec({ key: Buffer.alloc(32, 8) }).mint(
    "tools/call",
    await paramsDigest({ name: "ask", arguments: {} }),
    {},
  );
  assert.match((await retry(forged)).error.message, /integrity/);
  assert.match((await retry(await first(), { arguments: { x: 1 } })).error.message, /different params/);
  const wrongMethod = await new RequestStateCodec({ key }).mint(
    "prompts/get",
    await paramsDigest({ name: "ask", arguments: {} }),
    {},
  );
  assert.match((await retry(wrongMethod)).error.message, /issued for "prompts\/get"/);
  const expired = await new RequestStateCodec({ key, ttlMs: 1 }).mint(
    "tools/call",
    await paramsDigest({ name: "ask", arguments: {} }),
    {},
    Date.now() - 10,
  );
  assert.match((await retry(expired)).error.message, /expired/);
  const once = await first();
  assert.is((await retry(once)).result.resultType, "input_required");
  assert.match((await retry(once)).error.message, /already used/);
  await s.close();
});

// WebCrypto: minting, verifying and digesting answer asynchronously.
test("the codec binds to method and salient params only (_meta, inputResponses, requestState excluded)", async () => {
  const c = new RequestStateCodec();
  const d = await paramsDigest({ name: "t", arguments: { b: 1, a: [1, { y: 2, x: 1 }] }, _meta: { z: 1 } });
  assert.is(
    d,
    await paramsDigest({
      arguments: { a: [1, { x: 1, y: 2 }], b: 1 },
      name: "t",
      inputResponses: {},
      requestState: "s",
    }),
  );
  const st = await c.mint("tools/call", d, { k: 1 });
  const opened = await c.open(st, "tools/call", d);
  assert.ok(!("code" in opened) && opened.answers.k === 1);
  assert.throws(() => new RequestStateCodec({ key: "short" }), /32 bytes/);
});

test("a rotated key: states signed with a previous key are accepted, new ones are signed with the current key", async () => {
  const old = new Uint8Array(32).fill(1);
  const current = new Uint8Array(32).fill(2);
  const d = await paramsDigest({ name: "t" });
  const before = await new RequestStateCodec({ key: old }).mint("tools/call", d, { k: 1 });
  const rotated = new RequestStateCodec({ key: current, previousKeys: [old] });
  const opened = await rotated.open(before, "tools/call", d);
  assert.ok(!("code" in opened) && opened.answers.k === 1);
  const after = await rotated.mint("tools/call", d, {});
  const refused = await new RequestStateCodec({ key: old }).open(after, "tools/call", d);
  assert.ok("code" in refused && /integrity/.test(refused.message));
  assert.throws(() => new RequestStateCodec({ key: current, previousKeys: [new Uint8Array(8)] }), /32 bytes/);
});

test("requestState.maxBytes bounds what is minted as well as what is accepted: a state at the limit completes the next round, answers past it are -32602 in their round", async () => {
  const maxBytes = 2048;
  const s = server({ requestState: { maxBytes } });
  const peer = await connect(s);
  const round2 = async (name: string) => {
    const r1 = (await peer.call("tools/call", { name: "ask", arguments: {} })).result;
    return peer.call("tools/call", {
      name: "ask",
      arguments: {},
      inputResponses: { name: accept({ name }) },
      requestState: r1.requestState,
    });
  };
  // Every name length from short to well past the limit: a state is minted up to some length,
  // never longer than the limit, and from there on the answer is refused.
  let longest: { n: number; state: string } | undefined;
  let refusedFrom: number | undefined;
  for (let n = 1; n <= maxBytes; n++) {
    const r = await round2("a".repeat(n));
    if (r.result !== undefined) {
      assert.is(refusedFrom, undefined, `accepted at ${n} after a refusal at ${refusedFrom}`);
      assert.ok(r.result.requestState.length <= maxBytes, `state of ${r.result.requestState.length} characters minted`);
      longest = { n, state: r.result.requestState };
    } else {
      assert.is(r.error.code, -32602);
      assert.match(r.error.message, new RegExp(`limit of ${maxBytes} \\(requestState\\.maxBytes\\)`));
      assert.is(r.error.data.pointer, "/params/inputResponses");
      assert.ok(r.error.data.size > maxBytes);
      refusedFrom ??= n;
    }
  }
  assert.ok(longest !== undefined && refusedFrom === longest.n + 1);
  assert.ok(longest.state.length > maxBytes - 2, `tight: ${longest.state.length}`);
  const done = await peer.call("tools/call", {
    name: "ask",
    arguments: {},
    inputResponses: { "elicitation-2": accept({ color: "red" }) },
    requestState: longest.state,
  });
  assert.is(done.result.content[0].text, `${"a".repeat(longest.n)} likes red`);
  await s.close();
});

test("a prompt and a resource can ask too; other methods cannot return input_required", async () => {
  const s = server();
  const peer = await connect(s);
  const r = await peer.call("tools/list");
  assert.is(r.result.resultType, "complete");
  await s.close();
});

test.run();
