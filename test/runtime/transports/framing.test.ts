import { test } from "uvu";
import * as assert from "uvu/assert";
import { NdjsonDecoder, encodeNdjson } from "@mcpgen/runtime/stdio";
import { encodeSseEvent, encodeSseComment, SseDecoder } from "@mcpgen/runtime/http";
import type { JSONRPCErrorResponse } from "@mcpgen/runtime";

function collect(max?: number) {
  const messages: unknown[] = [];
  const bad: { error: Error; reply: JSONRPCErrorResponse }[] = [];
  const d = new NdjsonDecoder({
    maxMessageBytes: max,
    onmessage: (m) => messages.push(m),
    onbadline: (error, reply) => bad.push({ error, reply }),
  });
  return { d, messages, bad };
}

test("ndjson: a UTF-8 sequence split across chunks survives", () => {
  const { d, messages } = collect();
  const line = Buffer.from(JSON.stringify({ jsonrpc: "2.0", method: "x", params: { s: "héllo 🌍 日本" } }) + "\n");
  // Split at every byte position inside the line.
  for (let cut = 1; cut < line.length; cut++) {
    d.push(line.subarray(0, cut));
    d.push(line.subarray(cut));
  }
  assert.is(messages.length, line.length - 1);
  for (const m of messages) assert.equal((m as { params: { s: string } }).params.s, "héllo 🌍 日本");
});

test("ndjson: CRLF, empty and blank lines, several messages in one chunk", () => {
  const { d, messages, bad } = collect();
  d.push(Buffer.from('{"a":1}\r\n\n\r\n   \n{"b":2}\n{"c"'));
  d.push(Buffer.from(":3}\r\n"));
  assert.equal(messages, [{ a: 1 }, { b: 2 }, { c: 3 }]);
  assert.is(bad.length, 0);
});

test("ndjson: garbage gets -32700 (id null) and the stream goes on", () => {
  const { d, messages, bad } = collect();
  d.push(Buffer.from('not json\n{"ok":1}\n{"broken":\n[1,2]\n'));
  assert.equal(messages, [{ ok: 1 }, [1, 2]]);
  assert.is(bad.length, 2);
  for (const b of bad) {
    assert.is(b.reply.error.code, -32700);
    assert.is(b.reply.id, null);
  }
});

test("ndjson: a JSON scalar is an Invalid Request", () => {
  const { d, messages, bad } = collect();
  d.push(Buffer.from('42\n"s"\nnull\n{"ok":1}\n'));
  assert.equal(messages, [{ ok: 1 }]);
  assert.is(bad.length, 3);
  assert.is(bad[0]!.reply.error.code, -32600);
});

test("ndjson: oversized line in one chunk and across many chunks, then recovery", () => {
  const { d, messages, bad } = collect(64);
  d.push(Buffer.from(`{"s":"${"x".repeat(100)}"}\n{"ok":1}\n`));
  assert.equal(messages, [{ ok: 1 }]);
  assert.is(bad.length, 1);
  assert.is(bad[0]!.reply.error.code, -32700);
  assert.is(bad[0]!.reply.id, null);
  // Streamed in small pieces: must be discarded without buffering it all.
  d.push(Buffer.from('{"s":"'));
  for (let i = 0; i < 1000; i++) d.push(Buffer.from("yyyyyyyyyy"));
  assert.ok((d as unknown as { pendingBytes: number }).pendingBytes <= 65, "buffered bytes stay under the cap");
  d.push(Buffer.from('"}\n{"ok":2}\n'));
  assert.equal(messages, [{ ok: 1 }, { ok: 2 }]);
  assert.is(bad.length, 2);
});

test("ndjson: the cap is in bytes, inclusive, CR not counted", () => {
  const { d, messages, bad } = collect(12);
  d.push(Buffer.from('{"s":"éé"}\r\n')); // 12 bytes
  d.push(Buffer.from('{"s":"ééé"}\n')); // 14 bytes
  assert.is(messages.length, 1);
  assert.is(bad.length, 1);
});

test("ndjson: end() flushes a last line without newline", () => {
  const { d, messages } = collect();
  d.push(Buffer.from('{"last":true}'));
  assert.is(messages.length, 0);
  d.end();
  assert.equal(messages, [{ last: true }]);
});

test("ndjson: encoded messages never contain a raw newline", () => {
  const tricky = { jsonrpc: "2.0", method: "m", params: { s: "a\nb\r\nc\u2028d\u2029e\u0000", nested: ["\n"] } };
  const line = encodeNdjson(tricky);
  assert.is(line.indexOf("\n"), line.length - 1);
  assert.not.ok(line.includes("\r"));
  assert.equal(JSON.parse(line), tricky);
});

test("sse: encode fields, multi-line data, comments", () => {
  assert.is(encodeSseEvent({ event: "message", id: "7", data: "x" }), "event: message\nid: 7\ndata: x\n\n");
  assert.is(encodeSseEvent({ id: "p", retry: 500, data: "" }), "id: p\nretry: 500\ndata: \n\n");
  assert.is(encodeSseEvent({ data: "a\nb\r\nc" }), "data: a\ndata: b\ndata: c\n\n");
  assert.is(encodeSseComment("ping"), ": ping\n\n");
  assert.throws(() => encodeSseEvent({ id: "a\nb", data: "" }));
});

test("sse: decode round trip, split chunks (also inside UTF-8), retry and comments", () => {
  const stream =
    encodeSseComment("hello") +
    encodeSseEvent({ id: "1", retry: 250, data: "" }) +
    encodeSseEvent({ event: "message", id: "2", data: '{"s":"日本🌍"}' }) +
    encodeSseEvent({ event: "endpoint", data: "/messages?sessionId=1" }) +
    encodeSseEvent({ data: "line1\nline2" });
  const bytes = Buffer.from(stream);
  for (const step of [1, 2, 3, 7, bytes.length]) {
    const events: { id?: string; event?: string; data: string }[] = [];
    const retries: number[] = [];
    const comments: string[] = [];
    const dec = new SseDecoder({
      onevent: (e) => events.push(e),
      onretry: (r) => retries.push(r),
      oncomment: (c) => comments.push(c),
    });
    for (let i = 0; i < bytes.length; i += step) dec.push(bytes.subarray(i, i + step));
    dec.end();
    assert.equal(
      events.map((e) => [e.id, e.event, e.data]),
      [
        ["1", undefined, ""],
        ["2", "message", '{"s":"日本🌍"}'],
        [undefined, "endpoint", "/messages?sessionId=1"],
        [undefined, undefined, "line1\nline2"],
      ],
    );
    assert.equal(retries, [250]);
    assert.equal(
      comments.map((c) => c.trim()),
      ["hello"],
    );
  }
});

test.run();
