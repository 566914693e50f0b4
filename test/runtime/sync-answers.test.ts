// A legacy session answers a tools/call whose handler returns a plain value within the delivery of
// the request (no promise and no turn in between), through the era router of a server of both eras
// and without it; a handler returning a promise is answered once it settles, as before.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createMcpServer, type Transport } from "@mcpgen/runtime";
import { dual, latest } from "./helpers/binding.js";
import { definition, handlers } from "./modern/fixture.js";
import { settle } from "./helpers/peer.js";

/** A transport whose sends are recorded as they are made. */
function recording(): { transport: Transport; sent: any[] } {
  const sent: any[] = [];
  const transport: Transport = {
    start: async () => {},
    send: async (m) => void sent.push(m),
    close: async () => transport.onclose?.(),
  };
  return { transport, sent };
}

const call = (id: number, name: string, args: object) => ({
  jsonrpc: "2.0" as const,
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

for (const [label, revisions, bindings] of [
  ["legacy alone", ["2025-11-25"], [latest]],
  ["both eras", ["2026-07-28", "2025-11-25"], dual],
] as const) {
  test(`${label}: a synchronous tool's answer is sent before the request's delivery returns`, async () => {
    const server = createMcpServer(definition([...revisions]), handlers(), { bindings: [...bindings] });
    const { transport, sent } = recording();
    await server.connect(transport);
    transport.onmessage!({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    await settle();
    transport.onmessage!({ jsonrpc: "2.0", method: "notifications/initialized" });
    // The first call may wait for what loads on first use (the method's validators).
    transport.onmessage!(call(1, "echo", {}));
    await settle();
    assert.equal(sent.at(-1)?.id, 1);
    sent.length = 0;
    transport.onmessage!(call(2, "echo", { region: "eu" }));
    assert.equal(
      sent.map((m) => [m.id, m.result?.content?.[0]?.text]),
      [[2, "region=eu"]],
    );
    transport.onmessage!(call(3, "log", {}));
    assert.is(sent.length, 1, "an async handler's answer waits for its promise");
    await settle();
    assert.equal(sent.at(-1)?.id, 3);
    await server.close();
  });
}

test.run();
