// The fetch handler reads untrusted bodies from a ReadableStream, chunk by chunk (one of a small
// declared length in one piece): whatever the chunking, the declared length (or none, or a false
// one) and the size around maxBodyBytes, a body within the limit is read whole and answered as the
// node:http handler answers it, a larger one is 413, a malformed one 400/-32700, and nothing stays
// charged to the buffered bytes afterwards. A body that never ends is cut off at bodyTimeoutMs with 408.
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { createFetchHandler } from "@mcpgen/runtime/fetch";
import { server as modernServer } from "../runtime/modern/fixture.js";

const LIMIT = 512;
const server = modernServer();
const handler = createFetchHandler(server, { maxBodyBytes: LIMIT, bodyTimeoutMs: 200, onerror: () => {} });
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "p", version: "1" },
};
const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  host: "127.0.0.1",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/list",
};

/** `bytes` cut at the given fractions, as a stream handing out one piece per pull. */
function chunked(bytes: Uint8Array, cuts: number[]): ReadableStream<Uint8Array> {
  const at = [...new Set(cuts.map((c) => Math.floor(c * bytes.length)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const to of [...at, bytes.length]) {
    if (to > from) pieces.push(bytes.subarray(from, to));
    from = Math.max(from, to);
  }
  return new ReadableStream({
    pull(c) {
      const p = pieces.shift();
      if (p === undefined) c.close();
      else c.enqueue(p);
    },
  });
}

test("property: any chunking, declared length or not, size around the limit: read whole within it, 413 past it, nothing left charged", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.nat({ max: 2 * LIMIT }),
      fc.boolean(),
      fc.boolean(),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }),
      async (pad, declare, garble, cuts) => {
        const message = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META, pad: "x".repeat(pad) } };
        let text = JSON.stringify(message);
        if (garble) text = text.slice(0, -1);
        const bytes = new TextEncoder().encode(text);
        const headers: Record<string, string> = { ...HEADERS };
        if (declare) headers["content-length"] = String(bytes.length);
        const res = await handler(
          new Request("http://127.0.0.1/mcp", {
            method: "POST",
            headers,
            body: chunked(bytes, cuts),
            duplex: "half",
          } as RequestInit),
        );
        const body = (await res.json()) as { result?: { tools?: unknown[] }; error?: { code: number } };
        if (bytes.length > LIMIT) assert.is(res.status, 413);
        else if (garble) assert.equal([res.status, body.error?.code], [400, -32700]);
        else {
          assert.is(res.status, 200);
          assert.ok(Array.isArray(body.result?.tools));
        }
        assert.is(handler.bufferedBodyBytes, 0);
      },
    ),
    { numRuns: 150, seed: 20261127 },
  );
});

test("a body that never ends is cut off at bodyTimeoutMs with 408", async () => {
  const stalled = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0",'));
    },
  });
  const res = await handler(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: HEADERS,
      body: stalled,
      duplex: "half",
    } as RequestInit),
  );
  assert.is(res.status, 408);
  assert.is(handler.bufferedBodyBytes, 0);
});

test("a body of a small declared length that never ends is cut off at bodyTimeoutMs with 408 too (it is read in one piece)", async () => {
  const stalled = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0",'));
    },
  });
  const res = await handler(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { ...HEADERS, "content-length": "100" },
      body: stalled,
      duplex: "half",
    } as RequestInit),
  );
  assert.is(res.status, 408);
  assert.is(handler.bufferedBodyBytes, 0);
});

test("a Request made in code whose Content-Length understates its body is still held to maxBodyBytes: 413", async () => {
  const text = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/list",
    params: { _meta: META, pad: "x".repeat(LIMIT) },
  });
  const bytes = new TextEncoder().encode(text);
  const res = await handler(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { ...HEADERS, "content-length": "10" },
      body: chunked(bytes, [0.5]),
      duplex: "half",
    } as RequestInit),
  );
  assert.is(res.status, 413);
  assert.is(handler.bufferedBodyBytes, 0);
});

test("a body that starts with a byte order mark is not JSON: 400 / -32700, as on node:http (found by the fuzzer)", async () => {
  const text = "\uFEFF" + JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } });
  const res = await handler(new Request("http://127.0.0.1/mcp", { method: "POST", headers: HEADERS, body: text }));
  const body = (await res.json()) as { error?: { code: number } };
  assert.equal([res.status, body.error?.code], [400, -32700]);
});

test.after(async () => {
  await handler.close();
  await server.close();
});

test.run();
