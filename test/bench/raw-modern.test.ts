// The `raw26` bench baseline stands for the 2026-07-28 era's message sizes only if it sends and
// answers the very bytes mcpgen's pair does: its tools/call request is the one mcpgen's generated
// client sends, and its answer the one mcpgen's server sends, for the same call.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createMemoryTransportPair, type Transport } from "@mcpgen/runtime";
import { createBenchAddClient, clientBindings } from "../../bench/add/text/client.js";
import { createMcpgenServer } from "../../bench/servers/mcpgen-server.js";
import { createModernRawHandler, type Incoming } from "../../bench/servers/raw-handler.js";
import { raw26 } from "../../bench/impl/raw.js";
import { CLIENT_INFO, MODERN_REQUEST_META } from "../../bench/workload.js";

/** Every message `transport` sends, as the JSON text a stream transport writes of it. */
function recordSends(transport: Transport): string[] {
  const sent: string[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(JSON.stringify(message));
    return send(message, options);
  };
  return sent;
}

test("raw26: tools/call request and answer are mcpgen's 2026-07-28 bytes", async () => {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const fromClient = recordSends(clientSide);
  const fromServer = recordSends(serverSide);
  const connection = await (await createMcpgenServer("text")).connect(serverSide);
  const client = await createBenchAddClient(clientSide, { clientInfo: CLIENT_INFO, bindings: clientBindings });
  try {
    assert.is(client.protocolVersion, "2026-07-28");
    await client.tools.add({ a: 2, b: 3 });
    const request = fromClient.find((m) => m.includes('"tools/call"'));
    assert.ok(request !== undefined, fromClient.join("\n"));
    const id = (JSON.parse(request) as { id: number }).id;
    const rawRequest = {
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "add", arguments: { a: 2, b: 3 }, _meta: MODERN_REQUEST_META },
    };
    assert.is(JSON.stringify(rawRequest), request);
    const answer = fromServer.find((m) => (JSON.parse(m) as { id?: number }).id === id);
    assert.is(JSON.stringify(createModernRawHandler("text")(rawRequest as Incoming)), answer);
  } finally {
    await client.close();
    await connection.close();
  }
});

for (const variant of ["text", "structured"] as const) {
  test(`raw26 ${variant}: the stdio pair answers the sum`, async () => {
    const h = await raw26.stdio!({ variant });
    try {
      assert.is(h.revision, "2026-07-28");
      assert.is(await h.call(2, 3), 5);
      assert.equal(await Promise.all([h.call(1, 1), h.call(4, 5)]), [2, 9]);
    } finally {
      await h.close();
    }
  });
}

test.run();
