import { test } from "uvu";
import * as assert from "uvu/assert";
import { ConnectionClosedError, createMemoryTransportPair } from "@mcpgen/runtime";
import { Session } from "@mcpgen/runtime/internal";
import { latest } from "./helpers/binding.js";
import { rejection, settle } from "./helpers/peer.js";

test("delivery is asynchronous and ordered", async () => {
  const [a, b] = createMemoryTransportPair();
  const got: unknown[] = [];
  b.onmessage = (m) => void got.push(m);
  await a.start();
  await b.start();
  void a.send({ jsonrpc: "2.0", method: "one" });
  void a.send({ jsonrpc: "2.0", method: "two" });
  assert.equal(got, [], "not delivered synchronously");
  await settle();
  assert.equal(
    got.map((m: any) => m.method),
    ["one", "two"],
  );
});

test("messages sent before the peer starts are queued until start()", async () => {
  const [a, b] = createMemoryTransportPair();
  const got: unknown[] = [];
  b.onmessage = (m) => void got.push(m);
  await a.send({ jsonrpc: "2.0", method: "early" });
  await settle();
  assert.equal(got, []);
  await b.start();
  await settle();
  assert.is(got.length, 1);
});

test("a long synchronous ping-pong does not grow the stack", async () => {
  const [a, b] = createMemoryTransportPair();
  let n = 0;
  const limit = 100_000;
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  a.onmessage = () => {
    if (++n >= limit) return done();
    void a.send({ jsonrpc: "2.0", method: "x" });
  };
  b.onmessage = (m) => void b.send(m as never);
  await a.start();
  await b.start();
  await a.send({ jsonrpc: "2.0", method: "x" });
  await finished;
  assert.is(n, limit);
});

test("close propagates to the peer after queued messages are delivered; onclose fires once per side", async () => {
  const [a, b] = createMemoryTransportPair();
  const events: string[] = [];
  a.onclose = () => void events.push("a closed");
  b.onclose = () => void events.push("b closed");
  b.onmessage = (m: any) => void events.push(`b got ${m.method}`);
  await a.start();
  await b.start();
  void a.send({ jsonrpc: "2.0", method: "last" });
  await a.close();
  await a.close();
  await settle();
  assert.equal(events, ["a closed", "b got last", "b closed"]);
  assert.instance(await rejection(a.send({ jsonrpc: "2.0", method: "x" })), ConnectionClosedError);
  assert.instance(await rejection(b.send({ jsonrpc: "2.0", method: "x" })), ConnectionClosedError);
  await b.close();
  assert.is(events.length, 3);
});

test("an onmessage that throws is reported and delivery continues", async () => {
  const [a, b] = createMemoryTransportPair();
  const errors: Error[] = [];
  const got: string[] = [];
  b.onerror = (e) => void errors.push(e);
  b.onmessage = (m: any) => {
    if (m.method === "bad") throw new Error("handler bug");
    got.push(m.method);
  };
  await a.start();
  await b.start();
  await a.send({ jsonrpc: "2.0", method: "bad" });
  await a.send({ jsonrpc: "2.0", method: "good" });
  await settle();
  assert.equal(got, ["good"]);
  assert.is(errors[0]?.message, "handler bug");
});

test("two sessions over a pair: thousands of concurrent requests all resolve", async () => {
  const [a, b] = createMemoryTransportPair();
  const server = new Session({ transport: b, side: "server", binding: latest });
  const client = new Session({ transport: a, side: "client", binding: latest });
  server.setRequestHandler("tools/call", (p: any) => ({ content: [{ type: "text", text: String(p.arguments.i) }] }));
  await a.start();
  await b.start();
  const n = 5000;
  const results = await Promise.all(
    Array.from({ length: n }, (_, i) => client.request("tools/call", { name: "t", arguments: { i } })),
  );
  assert.is(results.length, n);
  assert.is((results[n - 1] as any).content[0].text, String(n - 1));
  assert.is(client.pendingCount, 0);
  assert.is(server.runningCount, 0);
  await client.close();
});

test("a synchronous answer is delivered by the drain that delivered its request (one microtask per exchange)", async () => {
  const [a, b] = createMemoryTransportPair();
  const got: string[] = [];
  b.onmessage = (m: any) => {
    got.push(`b got ${m.method}`);
    void b.send({ jsonrpc: "2.0", method: `re:${m.method}` });
    got.push("b answered");
  };
  a.onmessage = (m: any) => void got.push(`a got ${m.method}`);
  await a.start();
  await b.start();
  void a.send({ jsonrpc: "2.0", method: "ping" });
  assert.equal(got, [], "nothing is delivered inside send");
  await Promise.resolve();
  assert.equal(
    got,
    ["b got ping", "b answered", "a got re:ping"],
    "the answer follows after the handler returned, in the same drain",
  );
});

test("order is kept while a side's queue grows and wraps around during delivery", async () => {
  const [a, b] = createMemoryTransportPair();
  const got: number[] = [];
  let next = 100;
  b.onmessage = (m: any) => {
    got.push(m.params.n);
    // Messages queued to b while b is being drained land behind what is already queued.
    if (m.params.n % 3 === 0 && next < 140) {
      void a.send({ jsonrpc: "2.0", method: "n", params: { n: next++ } });
      void a.send({ jsonrpc: "2.0", method: "n", params: { n: next++ } });
    }
  };
  await a.start();
  for (let n = 0; n < 21; n++) void a.send({ jsonrpc: "2.0", method: "n", params: { n } });
  await settle();
  assert.equal(got, [], "queued until b starts");
  await b.start();
  await settle();
  const first = got.filter((n) => n < 100);
  const later = got.filter((n) => n >= 100);
  assert.equal(
    first,
    Array.from({ length: 21 }, (_, i) => i),
  );
  assert.equal(
    later,
    Array.from({ length: later.length }, (_, i) => 100 + i),
  );
  assert.ok(later.length >= 20);
  // Each side's queue starts empty again: more traffic still flows in order.
  got.length = 0;
  for (let n = 0; n < 3; n++) void a.send({ jsonrpc: "2.0", method: "n", params: { n: 1 + 3 * n } });
  await settle();
  assert.equal(got, [1, 4, 7]);
});

test.run();
