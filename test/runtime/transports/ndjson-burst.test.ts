// What the NDJSON transport writes per input chunk: one request per chunk (sequential calls) is
// answered by one write before the chunk's delivery returns; a chunk of pipelined requests is
// answered by at most two writes (the first answer, then the rest in one writev), in order, and so
// are the sends its continuations make before the event loop's check phase.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { PassThrough, Writable } from "node:stream";
import { setImmediate as nextCheck } from "node:timers/promises";
import { StdioServerTransport } from "@mcpgen/runtime/stdio";
import type { JSONRPCMessage } from "@mcpgen/runtime";

/** A Writable that records each write and writev it is handed. */
function recorder(highWaterMark?: number) {
  const calls: string[][] = [];
  const out = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, cb) {
      calls.push([String(chunk)]);
      cb();
    },
    writev(chunks, cb) {
      calls.push(chunks.map((c) => String(c.chunk)));
      cb();
    },
  });
  return { out, calls };
}

/** A transport that answers every request at once with its id. */
function echo(input: PassThrough, out: Writable): StdioServerTransport {
  const t = new StdioServerTransport({ stdin: input, stdout: out });
  t.onmessage = (m) => {
    const msg = m as JSONRPCMessage & { id: number };
    void t.send({ jsonrpc: "2.0", id: msg.id, result: { n: msg.id } });
  };
  return t;
}

const request = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }) + "\n";
const ids = (calls: string[][]) =>
  calls
    .flat()
    .flatMap((s) => s.split("\n").filter(Boolean))
    .map((l) => (JSON.parse(l) as { id: number }).id);

test("one request per chunk: its answer is written at once, one write per answer", async () => {
  const input = new PassThrough();
  const { out, calls } = recorder();
  const t = echo(input, out);
  await t.start();
  for (let id = 1; id <= 3; id++) {
    input.emit("data", Buffer.from(request(id)));
    assert.is(calls.length, id, "written before the chunk's delivery returned");
  }
  assert.equal(
    calls.map((c) => c.length),
    [1, 1, 1],
  );
  assert.equal(ids(calls), [1, 2, 3]);
  await t.close();
});

test("a chunk of pipelined requests: answers in order, in at most two writes", async () => {
  const input = new PassThrough();
  const { out, calls } = recorder();
  const t = echo(input, out);
  await t.start();
  input.emit("data", Buffer.from(Array.from({ length: 50 }, (_, i) => request(i + 1)).join("")));
  await nextCheck();
  assert.ok(calls.length <= 2, `${calls.length} writes`);
  assert.equal(
    ids(calls),
    Array.from({ length: 50 }, (_, i) => i + 1),
  );
  await t.close();
});

test("sends made by the continuations of a burst leave together with it, before the check phase ends", async () => {
  const input = new PassThrough();
  const { out, calls } = recorder();
  const t = new StdioServerTransport({ stdin: input, stdout: out });
  // Each message is answered a few microtasks later, as a client's next request follows a response.
  t.onmessage = (m) => {
    const id = (m as { id: number }).id;
    void Promise.resolve()
      .then(() => undefined)
      .then(() => t.send({ jsonrpc: "2.0", id, result: {} }));
  };
  await t.start();
  input.emit("data", Buffer.from(request(1) + request(2) + request(3) + request(4)));
  await nextCheck();
  assert.ok(calls.length <= 2, `${calls.length} writes`);
  assert.equal(ids(calls), [1, 2, 3, 4]);
  // The burst is over: the next single request is answered by a write of its own.
  input.emit("data", Buffer.from(request(5)));
  await Promise.resolve();
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(ids(calls), [1, 2, 3, 4, 5]);
  await t.close();
});

test("a burst holds back no more than the output's high-water mark: larger ones leave in pieces, in order", async () => {
  const input = new PassThrough();
  const { out, calls } = recorder(1024);
  const t = echo(input, out);
  await t.start();
  const answer = JSON.stringify({ jsonrpc: "2.0", id: 100, result: { n: 100 } }).length + 1;
  input.emit("data", Buffer.from(Array.from({ length: 200 }, (_, i) => request(i + 1)).join("")));
  await nextCheck();
  assert.equal(
    ids(calls),
    Array.from({ length: 200 }, (_, i) => i + 1),
  );
  assert.ok(calls.length > 2, `${calls.length} writes`);
  for (const c of calls) assert.ok(c.join("").length < 1024 + answer, `a write of ${c.join("").length} characters`);
  await t.close();
});

test.run();
