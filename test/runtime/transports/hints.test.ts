// A transport is its core (start, send, close and the callbacks) plus one optional `hints`: what
// the session and the lifecycles learn of it beyond moving messages comes from there and nowhere else.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { PassThrough } from "node:stream";
import { createMemoryTransportPair, type Transport, type TransportHints } from "@mcpgen/runtime";
import { connectClient, createServerSession } from "@mcpgen/runtime/internal";
import { bindings } from "../helpers/binding.js";

const serverInfo = { name: "hints-server", version: "1.0.0" };
const clientInfo = { name: "hints-client", version: "1.0.0" };

/** `inner` seen through its core alone, with `hints` of our own (or none). */
function withHints(inner: Transport, hints: TransportHints | undefined): Transport {
  const t: Transport = {
    start: () => inner.start(),
    send: (m, o) => inner.send(m, o),
    close: () => inner.close(),
    ...(hints === undefined ? {} : { hints }),
  };
  inner.onmessage = (m, c) => t.onmessage?.(m, c);
  inner.onclose = () => t.onclose?.();
  inner.onerror = (e) => t.onerror?.(e);
  return t;
}

test("the negotiated revision reaches a side's setProtocolVersion hint; a transport without hints is served alike", async () => {
  const [c, s] = createMemoryTransportPair();
  const heard: string[] = [];
  const server = await createServerSession({
    bindings,
    serverInfo,
    transport: withHints(s, { setProtocolVersion: (v) => void heard.push(`server ${v}`) }),
  });
  const client = await connectClient({ bindings, clientInfo, transport: withHints(c, undefined) });
  await server.initialized;
  assert.is(client.protocolVersion, "2025-11-25");
  assert.equal(heard, ["server 2025-11-25"]);
  // Wrapped without hints, the memory transport's own setProtocolVersion was out of the client's sight.
  assert.is(c.protocolVersion, undefined);
  await client.close();
});

test("only a transport whose hints say its input ends alone is given oninputend", async () => {
  for (const inputEnds of [true, false, undefined]) {
    const [c, s] = createMemoryTransportPair();
    const t = withHints(s, inputEnds === undefined ? undefined : { inputEnds });
    const server = await createServerSession({ bindings, serverInfo, transport: t });
    const client = await connectClient({ bindings, clientInfo, transport: c });
    await server.initialized;
    assert.is(typeof t.oninputend, inputEnds === true ? "function" : "undefined", String(inputEnds));
    await client.close();
  }
});

test("the in-memory, stdio and HTTP transports' hints are their own members", async () => {
  const [c] = createMemoryTransportPair();
  assert.is(c.hints, c);
  c.hints.setProtocolVersion?.("2025-06-18");
  assert.is(c.protocolVersion, "2025-06-18");
  const { StdioServerTransport } = await import("@mcpgen/runtime/stdio");
  const { StreamableHttpClientTransport } = await import("@mcpgen/runtime/http");
  const stdio = new StdioServerTransport({ stdin: new PassThrough(), stdout: new PassThrough() });
  assert.equal([stdio.hints.inputEnds, stdio.hints.peerIdentity], [true, "stdio"]);
  const http = new StreamableHttpClientTransport({ url: "http://127.0.0.1:9/mcp", sessionId: "s-1" });
  assert.is(http.hints.sessionId, "s-1");
});

test.run();
