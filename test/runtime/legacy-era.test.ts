// ABI 8: the legacy era reaches McpServer only as createMcpServer's `legacy` argument (the generated
// server passes `legacyEra` when its manifest lists a legacy revision). Without it a server of
// 2026-07-28 alone serves that era and still answers a legacy client; legacy bindings without it are
// refused at construction, naming the revisions; the package root's createMcpServer passes it itself.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createMcpServer as rootCreate } from "@mcpgen/runtime";
import { createMcpServer, legacyEra } from "@mcpgen/runtime/abi/v8";
import { bindings, modern } from "./helpers/binding.js";
import { connect, definition, handlers } from "./modern/fixture.js";

const initialize = {
  jsonrpc: "2.0",
  id: "init",
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

test("legacy bindings without the legacy era are refused, naming the revisions and what to pass", () => {
  assert.throws(
    () => createMcpServer(definition(), handlers(), { bindings: [modern, ...bindings], onerror: () => {} }),
    (e: Error) => e instanceof TypeError && /2025-11-25/.test(e.message) && /legacyEra/.test(e.message),
  );
});

test("a server of 2026-07-28 alone needs no legacy era, serves that era and answers a legacy initialize", async () => {
  const server = createMcpServer(definition(["2026-07-28"]), handlers(), { bindings: [modern], onerror: () => {} });
  const peer = await connect(server);
  try {
    const listed = await peer.call("tools/list");
    assert.ok(Array.isArray(listed.result?.tools), JSON.stringify(listed));
    await peer.send(initialize);
    const answer = await peer.next(2000);
    assert.is(answer.id, "init");
    assert.ok(answer.error, JSON.stringify(answer));
    assert.ok(JSON.stringify(answer.error).includes("2026-07-28"), JSON.stringify(answer.error));
  } finally {
    await server.close();
  }
});

test("with the legacy era, and through the package root without it, legacy clients are served", async () => {
  const make = [
    () => createMcpServer(definition(), handlers(), { bindings: [modern, ...bindings], onerror: () => {} }, legacyEra),
    () => rootCreate(definition(), handlers(), { bindings: [modern, ...bindings], onerror: () => {} }),
  ];
  for (const build of make) {
    const server = build();
    const peer = await connect(server);
    try {
      await peer.send(initialize);
      const answer = await peer.next(2000);
      assert.is(answer.result?.protocolVersion, "2025-11-25", JSON.stringify(answer));
    } finally {
      await server.close();
    }
  }
});

test.run();
