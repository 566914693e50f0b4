// A 2026-07-28 client serialises its shared `_meta` once and assembles each request's text from
// pieces (session/request-text.ts) where the transport takes text (NDJSON): the text must be the
// very one JSON.stringify writes of the whole request, whatever the params, and requests with a
// `_meta` of their own or a progress token still carry it.
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { PassThrough } from "node:stream";
import { StdioServerTransport } from "@mcpgen/runtime/stdio";
import { MetaKey, connectModernClient, requestText, sharedMeta } from "@mcpgen/runtime/internal";
import { modern } from "../helpers/binding.js";
import { DISCOVERED } from "./peer.js";

const json = fc.jsonValue({ maxDepth: 3 });
const params = fc.dictionary(
  fc.string().filter((k) => k !== "_meta"),
  json,
  { maxKeys: 6 },
);

test("requestText is JSON.stringify of the request with _meta added last", () => {
  fc.assert(
    fc.property(
      fc.nat(),
      fc.array(fc.string({ unit: "grapheme" }), { minLength: 1, maxLength: 3 }),
      params,
      fc.dictionary(fc.string(), json, { maxKeys: 4 }),
      (id, methods, p, meta) => {
        const shared = sharedMeta(meta);
        // Several methods in turn: the text of the last one is remembered.
        for (const method of methods) {
          const whole: Record<string, unknown> = { ...p };
          whole._meta = meta;
          const expected = JSON.stringify({ jsonrpc: "2.0", id, method, params: whole });
          assert.is(requestText(id, method, p, shared), expected);
        }
      },
    ),
    { numRuns: 300 },
  );
});

test("sharedMeta freezes the object it serialised", () => {
  const shared = sharedMeta({ a: 1 });
  assert.ok(Object.isFrozen(shared.value));
  assert.is(shared.text, '{"a":1}');
});

interface Line {
  id?: number;
  method?: string;
  params?: Record<string, any>;
}

/** A client on an NDJSON transport whose peer answers discover and tools/call; every line the client writes is kept. */
async function clientOverNdjson() {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const transport = new StdioServerTransport({ stdin: toClient, stdout: toServer });
  const lines: string[] = [];
  let buffered = "";
  toServer.setEncoding("utf8");
  toServer.on("data", (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      lines.push(line);
      const m = JSON.parse(line) as Line;
      if (m.id === undefined) continue;
      const result =
        m.method === "server/discover"
          ? DISCOVERED
          : m.method === "tools/list"
            ? { resultType: "complete", tools: [] }
            : { resultType: "complete", content: [{ type: "text", text: "ok" }] };
      toClient.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }) + "\n");
    }
  });
  const clientInfo = { name: "meta-text", version: "1.0.0" };
  const client = await connectModernClient({ transport, bindings: [modern], clientInfo, timeout: 2000 });
  const meta = {
    [MetaKey.protocolVersion]: "2026-07-28",
    [MetaKey.clientCapabilities]: {},
    [MetaKey.clientInfo]: clientInfo,
  };
  return { client, lines, meta };
}

test("over NDJSON a request's line is what JSON.stringify writes of it", async () => {
  const { client, lines, meta } = await clientOverNdjson();
  try {
    await client.request("tools/call", { name: "t", arguments: { x: "é\n\u2028" } });
    const line = lines.find((l) => l.includes('"tools/call"'))!;
    const id = (JSON.parse(line) as Line).id;
    const params = { name: "t", arguments: { x: "é\n\u2028" }, _meta: meta };
    assert.is(line, JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }));
    await client.request("tools/list");
    const list = lines.find((l) => l.includes('"tools/list"'))!;
    const listId = (JSON.parse(list) as Line).id;
    assert.is(list, JSON.stringify({ jsonrpc: "2.0", id: listId, method: "tools/list", params: { _meta: meta } }));
  } finally {
    await client.close();
  }
});

test("over NDJSON a caller's own _meta and a progress token still go out with the shared keys", async () => {
  const { client, lines, meta } = await clientOverNdjson();
  try {
    await client.request("tools/call", { name: "t", arguments: {}, _meta: { "com.example/trace": "x" } });
    await client.request("tools/call", { name: "u", arguments: {} }, { onprogress: () => {} });
    const calls = lines.map((l) => JSON.parse(l) as Line).filter((m) => m.method === "tools/call");
    assert.equal(calls[0]!.params!._meta, { "com.example/trace": "x", ...meta });
    assert.equal(calls[1]!.params, { name: "u", arguments: {}, _meta: { ...meta, progressToken: calls[1]!.id } });
  } finally {
    await client.close();
  }
});

test.run();
