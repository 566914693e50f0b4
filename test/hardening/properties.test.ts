// Property tests (fast-check, seconds): framing, classification and dispatch never throw, never
// leak a pending entry, and always answer with the right JSON-RPC error. The long runs over real
// transports are `npm run fuzz` (test/fuzz/run.ts).
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { createMemoryTransportPair, FrameError, type Transport } from "@mcpgen/runtime";
import { Session } from "@mcpgen/runtime/internal";
import {
  NdjsonDecoder,
  encodeNdjson,
  exceedsDepth,
  OutlineScanner,
  outlineOf,
  textExceedsDepth,
} from "@mcpgen/runtime/stdio";
import { EventEmitter } from "node:events";
import type { IncomingMessage } from "node:http";
import { SseDecoder, encodeSseEvent, badRequestId, parseBody, readBody, BodyTooLargeError } from "@mcpgen/runtime/http";
import { latest } from "../runtime/helpers/binding.js";
import { expectLine } from "../fuzz/oracle.js";
import { mutateMessage, rng } from "../fuzz/mutate.js";
import { clientShapes, specExamples, type Msg } from "../fuzz/seeds.js";

const RUNS = { numRuns: 300, seed: 20261123 };

/** Split bytes at the given fractions. */
function split(buf: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => Math.floor(c * buf.length)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(buf.subarray(prev, p));
    prev = p;
  }
  out.push(buf.subarray(prev));
  return out;
}

test("ndjson: any bytes in any chunking: no throw, one outcome per non-blank line, buffer bounded", () => {
  fc.assert(
    fc.property(
      fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 20 }),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }),
      (lines, cuts) => {
        let outcomes = 0;
        const d = new NdjsonDecoder({
          maxMessageBytes: 64,
          maxDepth: 8,
          onmessage: () => outcomes++,
          onbadline: () => outcomes++,
        });
        const text = Buffer.concat(
          lines.map((l) => Buffer.concat([Buffer.from(l.filter((c) => c !== 0x0a)), Buffer.from("\n")])),
        );
        for (const chunk of split(text, cuts)) {
          d.push(chunk);
          assert.ok((d as unknown as { pendingBytes: number }).pendingBytes <= 65);
        }
        d.end();
        const expected = lines.filter(
          (l) => !l.filter((c) => c !== 0x0a).every((c) => c === 0x20 || c === 0x09 || c === 0x0d),
        ).length;
        assert.is(outcomes, expected);
      },
    ),
    RUNS,
  );
});

test("ndjson: valid messages survive any chunking intact", () => {
  fc.assert(
    fc.property(
      fc.array(fc.jsonValue({ maxDepth: 4 }), { minLength: 1, maxLength: 10 }),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 10 }),
      (values, cuts) => {
        const messages = values.map((v, i) => ({ jsonrpc: "2.0", id: i, result: { v } }));
        const got: unknown[] = [];
        const d = new NdjsonDecoder({ onmessage: (m) => got.push(m), onbadline: (e) => assert.unreachable(e.message) });
        for (const chunk of split(Buffer.from(messages.map(encodeNdjson).join("")), cuts)) d.push(chunk);
        assert.equal(got, JSON.parse(JSON.stringify(messages)));
      },
    ),
    RUNS,
  );
});

test("sse: any text in any chunking never throws; encoded events round-trip", () => {
  fc.assert(
    fc.property(
      fc.string({ unit: "binary", maxLength: 300 }),
      fc.array(fc.string({ maxLength: 50 }), { maxLength: 5 }),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
      (noise, datas, cuts) => {
        const garbage = new SseDecoder({ onevent: () => {} }, { maxBufferChars: 100 });
        for (const chunk of split(Buffer.from(noise, "utf8"), cuts)) garbage.push(chunk);
        garbage.end();
        const got: string[] = [];
        const d = new SseDecoder({ onevent: (e) => got.push(e.data) });
        const wire = Buffer.from(
          datas.map((data, i) => encodeSseEvent({ event: "message", id: String(i), data })).join(""),
          "utf8",
        );
        for (const chunk of split(wire, cuts)) d.push(chunk);
        d.end();
        assert.equal(
          got,
          datas.map((s) => s.replace(/\r\n|\r/g, "\n")),
        );
      },
    ),
    RUNS,
  );
});

test("outline scanner: any chunking of any message reads the same kind and id as parsing it", () => {
  const id = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.integer(),
    fc.constant(null),
    fc.boolean(),
    fc.array(fc.integer(), { maxLength: 2 }),
  );
  fc.assert(
    fc.property(
      id,
      fc.constantFrom("method", "result", "error", "other"),
      fc.jsonValue({ maxDepth: 3 }),
      fc.boolean(),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
      (idv, key, payload, idFirst, cuts) => {
        const m = idFirst ? { jsonrpc: "2.0", id: idv, [key]: payload } : { jsonrpc: "2.0", [key]: payload, id: idv };
        const s = new OutlineScanner();
        for (const chunk of split(Buffer.from(JSON.stringify(m)), cuts)) s.push(chunk);
        assert.equal(s.outline(), outlineOf(m));
      },
    ),
    RUNS,
  );
});

test("HTTP POST checks: any body text never throws; refusals carry an id only when it is a usable one", () => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.json({ maxDepth: 5 })), (text) => {
      const r = parseBody(text, 4);
      if ("value" in r) {
        const list = Array.isArray(r.value) ? r.value : [r.value];
        const bad = badRequestId(list);
        if (bad) assert.is(bad.id, null);
      } else assert.ok(r.id === null || typeof r.id === "string" || Number.isSafeInteger(r.id));
    }),
    RUNS,
  );
});

test("ndjson: a line is refused for depth exactly when its bytes nest deeper than maxDepth (walked or scanned)", () => {
  const verdict = (line: string, maxDepth: number): "message" | "deep" | "other" => {
    let out: "message" | "deep" | "other" = "other";
    const d = new NdjsonDecoder({
      maxDepth,
      onmessage: () => (out = "message"),
      onbadline: (e) => (out = /nests deeper/.test(e.message) ? "deep" : "other"),
    });
    d.push(Buffer.from(line + "\n"));
    return out;
  };
  fc.assert(
    fc.property(
      fc.json({ maxDepth: 8 }),
      fc.string({ maxLength: 40 }),
      fc.integer({ min: 0, max: 7 }),
      (json, pad, max) => {
        const line = `{"jsonrpc":"2.0","id":1,"result":${json},"pad":${JSON.stringify(pad)}}`;
        assert.is(
          verdict(line, max),
          exceedsDepth(Buffer.from(line), 0, Buffer.byteLength(line), max) ? "deep" : "message",
        );
      },
    ),
    RUNS,
  );
  // Past the deepest limit a value is walked for, the bytes are scanned: the verdict is the same.
  for (const max of [1500]) {
    const nested = (levels: number) =>
      `{"jsonrpc":"2.0","id":1,"result":${"[".repeat(levels - 1)}${"]".repeat(levels - 1)}}`;
    assert.is(verdict(nested(max), max), "message");
    assert.is(verdict(nested(max + 1), max), "deep");
  }
});

test("HTTP POST bodies: refused for depth exactly when textExceedsDepth says; a parsed body is charged at least its length", () => {
  fc.assert(
    fc.property(fc.json({ maxDepth: 8 }), fc.integer({ min: 1, max: 6 }), (text, max) => {
      const r = parseBody(text, max);
      assert.is("value" in r, !textExceedsDepth(text, max));
      if ("value" in r) assert.ok(r.bytes >= text.length);
    }),
    RUNS,
  );
  // What a body is charged follows what it parses into, not only its length.
  const objects = JSON.stringify(Array.from({ length: 10_000 }, () => ({})));
  const text = JSON.stringify({ text: "x".repeat(30_000) });
  const charged = (body: string) => (parseBody(body, 128) as { bytes: number }).bytes;
  assert.ok(
    charged(objects) > 15 * objects.length,
    `${charged(objects)} bytes for ${objects.length} characters of empty objects`,
  );
  assert.ok(charged(text) < 1.01 * text.length, `${charged(text)} bytes for ${text.length} characters of one string`);
});

test("HTTP body over the limit, read for its outline: any chunking, declared length or not, gives the kind and id a parse gives", async () => {
  const id = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.integer(),
    fc.constant(null),
    fc.boolean(),
    fc.array(fc.integer(), { maxLength: 2 }),
  );
  const limit = 64;
  // Bodies from a few bytes to a few times the limit, so that chunks end before it as often as after.
  const payload = fc
    .tuple(fc.jsonValue({ maxDepth: 2 }), fc.string({ maxLength: 120 }))
    .map(([v, pad]) => ({ v, pad }));
  await fc.assert(
    fc.asyncProperty(
      id,
      fc.constantFrom("method", "result", "error", "other"),
      payload,
      fc.boolean(),
      fc.boolean(),
      fc.array(fc.nat({ max: 4 * limit }), { maxLength: 6 }),
      async (idv, key, body, idFirst, declare, at) => {
        const m = idFirst ? { jsonrpc: "2.0", id: idv, [key]: body } : { jsonrpc: "2.0", [key]: body, id: idv };
        const bytes = Buffer.from(JSON.stringify(m));
        // Cut at byte offsets: chunks that end before the limit are the ones a scan must not lose.
        const cuts = at.map((n) => Math.min(n, bytes.length) / bytes.length);
        const outcome = (outline: boolean) => {
          const req = Object.assign(new EventEmitter(), {
            headers: declare ? { "content-length": String(bytes.length) } : {},
          });
          const read = readBody(req as unknown as IncomingMessage, limit, 0, outline).then(
            (b) => b,
            (e: unknown) => e,
          );
          for (const chunk of split(bytes, cuts)) if (chunk.length > 0) req.emit("data", chunk);
          req.emit("end");
          return read;
        };
        const scanned = await outcome(true);
        const plain = await outcome(false);
        if (bytes.length <= limit) {
          // A Uint8Array of the bytes (node's one chunk stays the Buffer it was).
          assert.equal(new Uint8Array(scanned as Uint8Array), new Uint8Array(bytes));
          assert.equal(new Uint8Array(plain as Uint8Array), new Uint8Array(bytes));
        } else {
          assert.instance(scanned, BodyTooLargeError);
          assert.equal((scanned as BodyTooLargeError).outline, outlineOf(m));
          assert.instance(plain, BodyTooLargeError);
          assert.is((plain as BodyTooLargeError).outline, undefined, "without `outline` the body is not read on");
        }
      },
    ),
    RUNS,
  );
});

/** Feed mutated messages to a 2025-11-25 server session; check every answer against the oracle. */
function dispatchCase(seeds: Msg[], seed: number, n: number): Promise<void> {
  {
    const r = rng(seed);
    const [t, peerT] = createMemoryTransportPair();
    const s = new Session({ transport: t, side: "server", binding: latest, onerror: () => {} });
    s.setRequestHandler("ping", () => ({}));
    s.setRequestHandler("tools/call", async () => ({ content: [] }));
    const replies: any[] = [];
    peerT.onmessage = (m) => replies.push(m);
    void t.start();
    void peerT.start();
    const crashes: unknown[] = [];
    t.onerror = (e) => crashes.push(e);
    const sent: Buffer[] = [];
    for (let i = 0; i < n; i++) {
      // Through the real decoder, so size and depth limits apply as on a wire.
      const m = mutateMessage(r, seeds[Math.floor(r() * seeds.length)]!);
      let text: string;
      try {
        text = JSON.stringify(m);
      } catch {
        continue; // deeper than JSON.stringify goes: not something a peer can send as JSON text either way
      }
      sent.push(Buffer.from(text));
    }
    const decoder = new NdjsonDecoder({
      maxDepth: 64,
      onmessage: (m) => t.onmessage!(m),
      onbadline: (e, reply, outline) => (t as Transport).onframeerror!(new FrameError(e.message, reply, outline)),
    });
    for (const line of sent) decoder.push(Buffer.concat([line, Buffer.from("\n")]));
    return new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => {
        assert.equal(crashes, []);
        const flat = replies.flat();
        // Specific expectations first, so a reply a looser one would also accept is not taken from them.
        const expectations = sent
          .map((line) => ({ line, e: expectLine(line, 4 * 1024 * 1024, 64) }))
          .sort((a, b) => Number(a.e.codes === undefined) - Number(b.e.codes === undefined));
        for (const { line, e } of expectations) {
          if (!e.reply || e.id === undefined) continue;
          const match = flat.findIndex(
            (x) => x && x.id === e.id && (e.codes === undefined || (x.error && e.codes.includes(x.error.code))),
          );
          assert.ok(
            match !== -1,
            `no right answer for ${line.toString("utf8").slice(0, 200)} (expected id ${JSON.stringify(e.id)}, codes ${e.codes}); got ${JSON.stringify(flat).slice(0, 400)}`,
          );
          flat.splice(match, 1);
        }
        assert.is(s.runningCount, 0);
        assert.is(s.pendingCount, 0);
      });
  }
}

test("dispatch: mutated 2025-11-25 client messages are answered by the oracle's rules", async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer(), fc.integer({ min: 1, max: 20 }), (a, b) => dispatchCase(clientShapes, a, b)),
    { numRuns: 150, seed: 7 },
  );
});

test("dispatch: mutated spec examples (2026-07-28) likewise", async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer(), fc.integer({ min: 1, max: 20 }), (a, b) => dispatchCase(specExamples(), a, b)),
    { numRuns: 150, seed: 11 },
  );
});

test.run();
