// POST bodies being read are bounded together, not only each: every HTTP handler (Streamable HTTP,
// and the legacy HTTP+SSE /messages) charges the bytes it buffers for bodies still arriving to one
// server-wide bound (maxBufferedBodyBytes) and releases them once a body is parsed, refused or cut
// off. With slow senders filling it, the next body gets 503 with Retry-After at once (logged
// through onerror) instead of being buffered too; when they finish, bodies are read again.
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import * as net from "node:net";
import { EventEmitter } from "node:events";
import type { IncomingMessage } from "node:http";
import {
  BodyBufferFullError,
  BodyTooLargeError,
  BufferedBodies,
  createLegacySseHandler,
  createStreamableHttpServer,
  readBody,
  type StreamableHttpServer,
} from "@mcpgen/runtime/http";
import { limits } from "@mcpgen/runtime";
import { createServer } from "../../examples/everything/src/server.js";
import { OpenStream, raw, waitFor, within } from "../runtime/transports/helpers.js";

const stops: (() => Promise<void> | void)[] = [];
test.after.each(async () => {
  for (const f of stops.splice(0).reverse()) await f();
});

const ACCEPT = "application/json, text/event-stream";

/** A ping whose JSON is padded with spaces to exactly `size` bytes. */
function ping(id: number, size: number): string {
  const m = JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });
  return m + " ".repeat(size - m.length);
}

/**
 * A POST on a socket of its own that sends its headers and the first `sent` bytes of `body`, then
 * waits for `finish()` (the rest) or `abort()`. `reply` is everything the server wrote until it
 * closed the connection (or 5 s passed).
 */
function slowPost(url: URL, path: string, headers: Record<string, string>, body: string, sent: number) {
  const sock = net.connect(Number(url.port), "127.0.0.1");
  const head = Object.entries({
    host: `127.0.0.1:${url.port}`,
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    connection: "close",
    ...headers,
  })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  sock.write(`POST ${path} HTTP/1.1\r\n${head}\r\n${body.slice(0, sent)}`);
  let got = "";
  sock.setEncoding("utf8").on("data", (d: string) => (got += d));
  sock.on("error", () => {});
  const reply = within(
    new Promise<string>((resolve) => sock.on("close", () => resolve(got))),
    5000,
    "the reply to a slow POST",
  );
  return { reply, finish: () => void sock.write(body.slice(sent)), abort: () => void sock.destroy() };
}

/** The status line's code and the headers of a raw HTTP reply. */
function statusOf(reply: string): { status: number; headers: string } {
  const end = reply.indexOf("\r\n\r\n");
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1] ?? 0),
    headers: reply.slice(0, end === -1 ? undefined : end).toLowerCase(),
  };
}

/** The "everything" example on Streamable HTTP with the legacy HTTP+SSE paths mounted, each handler's bodies bounded to `max` bytes. */
async function start(max: number) {
  const refusals: Error[] = [];
  const legacyRefusals: Error[] = [];
  const everything = createServer({ onerror: () => {} });
  const legacy = createLegacySseHandler({
    onsession: (t) => void everything.connect(t),
    keepAliveMs: 0,
    maxBufferedBodyBytes: max,
    onerror: (e) => legacyRefusals.push(e),
  });
  const server: StreamableHttpServer = createStreamableHttpServer({
    onsession: (t) => everything.connect(t).then(() => {}),
    keepAliveMs: 0,
    maxBufferedBodyBytes: max,
    legacySse: legacy,
    onerror: (e) => refusals.push(e),
  });
  stops.push(async () => {
    await everything.close();
    await server.close();
  });
  return { server, legacy, url: await server.listen(), refusals, legacyRefusals };
}

async function session(url: URL): Promise<Record<string, string>> {
  const init = await raw(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
  assert.is(init.status, 200, init.body);
  const h = {
    "content-type": "application/json",
    accept: ACCEPT,
    "mcp-session-id": init.headers["mcp-session-id"] as string,
    "mcp-protocol-version": "2025-11-25",
  };
  assert.is(
    (
      await raw(url, {
        method: "POST",
        headers: h,
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      })
    ).status,
    202,
  );
  return h;
}

test("Streamable HTTP: slow bodies filling maxBufferedBodyBytes make the next POST 503 at once (declared length or chunked), logged; finished, they are answered and POSTs are read again", async () => {
  const { server, url, refusals } = await start(1000);
  const h = await session(url);
  // Three bodies of 400 bytes each, 300 sent: 900 bytes buffered, every one within the bound.
  const slow = [1, 2, 3].map((i) => slowPost(url, url.pathname, h, ping(10 + i, 400), 300));
  await waitFor(() => server.bufferedBodyBytes === 900, 2000, "the slow bodies' first bytes to be buffered");

  const started = Date.now();
  const refused = await raw(url, { method: "POST", headers: h, body: ping(20, 200) });
  assert.is(refused.status, 503, refused.body);
  assert.is(refused.headers["retry-after"], "5");
  assert.is(refused.headers.connection, "close");
  assert.is(JSON.parse(refused.body).error.code, -32000);
  assert.match(JSON.parse(refused.body).error.message, /maxBufferedBodyBytes/);
  // Without a declared length the chunk that would pass the bound is refused.
  const chunk = ping(21, 200);
  const sock = net.connect(Number(url.port), "127.0.0.1");
  sock.on("error", () => {});
  const head = Object.entries({ host: `127.0.0.1:${url.port}`, ...h, "transfer-encoding": "chunked" })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  sock.write(`POST ${url.pathname} HTTP/1.1\r\n${head}\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n`);
  let got = "";
  sock.setEncoding("utf8").on("data", (d: string) => (got += d));
  await waitFor(() => got.includes("\r\n\r\n"), 2000, "the chunked POST's answer");
  sock.destroy();
  assert.is(statusOf(got).status, 503, got);
  assert.ok(Date.now() - started < 2000, "refused at once, not after a body timeout");
  assert.ok(
    refusals.filter((e) => /^POST refused \(503\): .*maxBufferedBodyBytes/.test(e.message)).length >= 2,
    "each refusal is logged",
  );
  assert.is(server.bufferedBodyBytes, 900, "a refused body holds nothing");

  for (const s of slow) s.finish();
  for (const [i, s] of slow.entries()) {
    const reply = await s.reply;
    assert.is(statusOf(reply).status, 200, reply);
    assert.match(reply, new RegExp(`"id":${11 + i},"result":\\{\\}`));
  }
  assert.is(server.bufferedBodyBytes, 0);
  const again = await raw(url, { method: "POST", headers: h, body: ping(30, 1000) });
  assert.is(again.status, 200, "a body as large as the whole bound is read again");
  assert.equal(JSON.parse(again.body), { jsonrpc: "2.0", id: 30, result: {} });
});

test("Streamable HTTP: a body cut off, or too slow, releases its charge; a bounded loop of them leaves the count at 0", async () => {
  const { server, url } = await start(1000);
  const h = await session(url);
  for (let i = 0; i < 20; i++) {
    const s = slowPost(url, url.pathname, h, ping(100 + i, 900), 600);
    await waitFor(() => server.bufferedBodyBytes === 600, 2000, `body ${i} to be buffered`);
    s.abort();
    await waitFor(() => server.bufferedBodyBytes === 0, 2000, `aborted body ${i} to be released`);
  }
  const ok = await raw(url, { method: "POST", headers: h, body: ping(200, 1000) });
  assert.is(ok.status, 200, "nothing leaked: the whole bound is free");
});

test("a body that times out releases its charge (408)", async () => {
  const refusals: Error[] = [];
  const everything = createServer({ onerror: () => {} });
  const server = createStreamableHttpServer({
    onsession: (t) => everything.connect(t).then(() => {}),
    keepAliveMs: 0,
    maxBufferedBodyBytes: 1000,
    bodyTimeoutMs: 200,
    onerror: (e) => refusals.push(e),
  });
  stops.push(async () => {
    await everything.close();
    await server.close();
  });
  const url = await server.listen();
  const s = slowPost(url, url.pathname, { accept: ACCEPT }, ping(1, 900), 600);
  await waitFor(() => server.bufferedBodyBytes === 600, 2000, "the body to be buffered");
  assert.is(statusOf(await s.reply).status, 408);
  assert.is(server.bufferedBodyBytes, 0);
});

test("legacy HTTP+SSE /messages: its own bound, 503 at once when slow bodies fill it, logged through its onerror; bodies read again after; an aborted one releases", async () => {
  const { server, legacy, url, legacyRefusals } = await start(1000);
  const stream = await OpenStream.open(new URL("/sse", url), { headers: { accept: "text/event-stream" } });
  stops.push(() => stream.close());
  await waitFor(() => stream.events().length === 1, 2000, "the endpoint event");
  const endpoint = new URL(stream.events()[0]!.data, url);
  const path = endpoint.pathname + endpoint.search;
  const slow = [1, 2].map((i) => slowPost(url, path, {}, ping(i, 500), 450));
  await waitFor(() => legacy.bufferedBodyBytes === 900, 2000, "the slow bodies to be buffered");
  assert.is(server.bufferedBodyBytes, 0, "the Streamable HTTP handler's bound is another");

  const refused = await raw(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: ping(3, 200),
  });
  assert.is(refused.status, 503, refused.body);
  assert.is(refused.headers["retry-after"], "5");
  assert.is(refused.headers.connection, "close");
  assert.ok(
    legacyRefusals.some((e) => /^POST refused \(503\): .*maxBufferedBodyBytes/.test(e.message)),
    "the refusal is logged",
  );
  // The Streamable HTTP endpoint still reads bodies.
  assert.is((await session(url))["mcp-protocol-version"], "2025-11-25");

  for (const s of slow) s.finish();
  for (const s of slow) assert.is(statusOf(await s.reply).status, 202);
  assert.is(legacy.bufferedBodyBytes, 0);
  assert.is(
    (await raw(endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: ping(4, 1000) }))
      .status,
    202,
  );

  for (let i = 0; i < 10; i++) {
    const s = slowPost(url, path, {}, ping(10 + i, 900), 600);
    await waitFor(() => legacy.bufferedBodyBytes === 600, 2000, `body ${i} to be buffered`);
    s.abort();
    await waitFor(() => legacy.bufferedBodyBytes === 0, 2000, `aborted body ${i} to be released`);
  }
  await waitFor(
    () => stream.events().filter((e) => e.event === "message").length === 3,
    2000,
    "the three read pings answered on the stream",
  );
});

test("maxBufferedBodyBytes defaults to 256 MiB and must be a positive integer", () => {
  assert.is(new BufferedBodies().max, limits.MAX_BUFFERED_BODY_BYTES);
  assert.is(limits.MAX_BUFFERED_BODY_BYTES, 256 * 1024 * 1024);
  for (const bad of [0, -1, 1.5, Number.NaN, Infinity]) {
    assert.throws(() => new BufferedBodies(bad), /maxBufferedBodyBytes must be a positive integer/);
    assert.throws(
      () => createStreamableHttpServer({ onsession: () => {}, maxBufferedBodyBytes: bad }),
      /maxBufferedBodyBytes/,
    );
    assert.throws(
      () => createLegacySseHandler({ onsession: () => {}, maxBufferedBodyBytes: bad }),
      /maxBufferedBodyBytes/,
    );
  }
});

/** A request body that arrives as the test says (readBody only listens to these events). */
function fakeRequest(declared: number | undefined): EventEmitter & { headers: Record<string, string> } {
  const headers: Record<string, string> = declared === undefined ? {} : { "content-length": String(declared) };
  return Object.assign(new EventEmitter(), { headers });
}

test("property: bodies read at once, in any interleaving of chunks, ends, aborts and errors, with or without a declared length, scanned or not: the charge is what the open bodies keep, never over the bound, 0 at the end", async () => {
  const MAX = 1000;
  const LIMIT = 600;
  const op = fc.record({
    body: fc.integer({ min: 0, max: 3 }),
    kind: fc.constantFrom("chunk", "chunk", "chunk", "end", "close", "error"),
    size: fc.integer({ min: 1, max: 400 }),
    declared: fc.option(fc.integer({ min: 0, max: 1200 }), { nil: undefined }),
    outline: fc.boolean(),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(op, { maxLength: 80 }), async (ops) => {
      const buffered = new BufferedBodies(MAX);
      type Open = {
        req: ReturnType<typeof fakeRequest>;
        outcome: Promise<unknown>;
        kept: Buffer[];
        size: number;
        scanning: boolean;
        outline: boolean;
        expect?: string;
      };
      const open: (Open | undefined)[] = [];
      const settled: Promise<void>[] = [];
      const keptBytes = () => open.reduce((n, b) => n + (b?.kept.reduce((m, c) => m + c.length, 0) ?? 0), 0);
      /** Ends body `i` as the model says it must end; `what` the outcome's kind. */
      const ended = (i: number, b: Open, what: (r: unknown) => void) => {
        open[i] = undefined;
        settled.push(b.outcome.then(what));
      };
      let n = 0;
      for (const o of ops) {
        const b = open[o.body];
        if (b === undefined) {
          // No body open at this index: the op opens one.
          const req = fakeRequest(o.declared);
          const used = buffered.used;
          const outcome = readBody(req as unknown as IncomingMessage, LIMIT, 0, o.outline, buffered).then(
            (v) => v,
            (e: unknown) => e,
          );
          const tooLong = o.declared !== undefined && o.declared > LIMIT;
          if (tooLong && !o.outline) settled.push(outcome.then((r) => assert.instance(r, BodyTooLargeError)));
          else if (!tooLong && o.declared !== undefined && used + o.declared > MAX)
            settled.push(outcome.then((r) => assert.instance(r, BodyBufferFullError)));
          else open[o.body] = { req, outcome, kept: [], size: 0, scanning: tooLong, outline: o.outline };
        } else if (o.kind === "chunk") {
          const chunk = Buffer.alloc(o.size, 48 + (n++ % 10));
          const before = buffered.used;
          b.req.emit("data", chunk);
          // A scanned body keeps nothing; one passing LIMIT is refused, or scanned from then on.
          if (!b.scanning && (b.size += o.size) > LIMIT) {
            if (!b.outline) ended(o.body, b, (r) => assert.instance(r, BodyTooLargeError));
            else {
              b.scanning = true;
              b.kept = [];
            }
          } else if (!b.scanning && before + o.size > MAX)
            ended(o.body, b, (r) => assert.instance(r, BodyBufferFullError));
          else if (!b.scanning) b.kept.push(chunk);
        } else if (o.kind === "end") {
          b.req.emit("end");
          // readBody resolves to the bytes as a Uint8Array (node's one chunk stays the Buffer it was).
          const whole = new Uint8Array(Buffer.concat(b.kept));
          ended(o.body, b, (r) =>
            b.scanning ? assert.instance(r, BodyTooLargeError) : assert.equal(new Uint8Array(r as Uint8Array), whole),
          );
        } else if (o.kind === "close") {
          b.req.emit("close");
          ended(o.body, b, (r) =>
            b.scanning ? assert.instance(r, BodyTooLargeError) : assert.match(String(r), /request aborted/),
          );
        } else {
          const e = new Error("socket hang up");
          b.req.emit("error", e);
          ended(o.body, b, (r) => assert.is(r, e));
        }
        assert.is(buffered.used, keptBytes());
        assert.ok(buffered.used <= MAX);
      }
      for (const [i, b] of open.entries()) {
        if (b === undefined) continue;
        b.req.emit("close");
        ended(i, b, () => {});
      }
      await Promise.all(settled);
      assert.is(buffered.used, 0);
    }),
    { numRuns: 300, seed: 20261129 },
  );
});

test.run();
