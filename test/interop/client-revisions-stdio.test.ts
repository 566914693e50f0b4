// Protocol revision negotiation of our generic client against servers that speak exactly one
// older revision, as real child processes over stdio: the official SDK v2 server restricted with
// its `supportedProtocolVersions` option, and our runtime's session layer with a single generated
// binding. SDK v1 has no such option, so it is checked answering an old revision our client asks for.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ProtocolVersionError } from "@mcpgen/runtime";
import { bindings, byRevision, latest } from "../runtime/helpers/binding.js";
import { fixture, spawnClient } from "./helpers/stdio-peer.js";

const clientInfo = { name: "mcpgen-interop", version: "1.0.0" };

for (const revision of ["2024-11-05", "2025-03-26"] as const) {
  const server = [fixture("single-revision-server.mjs"), revision];

  test(`client offering ${latest.revision} settles on ${revision} with a server that only speaks it`, async () => {
    const peer = await spawnClient(server, { bindings, clientInfo });
    try {
      assert.is(peer.client.protocolVersion, revision);
      assert.is(peer.client.serverInfo.name, `only-${revision}`);
      const r = await peer.client.callTool("revision", {});
      assert.equal(r.content, [{ type: "text", text: revision }]);
    } finally {
      await peer.close();
    }
  });

  test(`client pinned to ${revision} gets it from a server that only speaks it`, async () => {
    const peer = await spawnClient(server, { bindings, clientInfo, protocolVersion: revision });
    try {
      assert.is(peer.client.protocolVersion, revision);
      await peer.client.ping();
    } finally {
      await peer.close();
    }
  });

  test(`client offering ${latest.revision} settles on ${revision} with an SDK v2 server restricted to it`, async () => {
    const peer = await spawnClient([fixture("sdk-v2-one-revision-server.mjs"), revision], { bindings, clientInfo });
    try {
      assert.is(peer.client.protocolVersion, revision);
      assert.is(peer.client.serverInfo.name, `sdk-v2-only-${revision}`);
      const r = await peer.client.callTool("revision", {});
      assert.equal(r.content, [{ type: "text", text: revision }]);
    } finally {
      await peer.close();
    }
  });

  test(`client without ${revision} refuses a server that only speaks it (no hang)`, async () => {
    const e = await spawnClient(server, { bindings: [latest], clientInfo }).then(
      async (peer) => (await peer.close(), undefined),
      (x: unknown) => x,
    );
    assert.instance(e, ProtocolVersionError, String(e));
  });
}

test("client asking only for 2024-11-05 gets it from the SDK v1 server (stdio)", async () => {
  const peer = await spawnClient([fixture("sdk-v1-stdio-server.mjs")], {
    bindings: [byRevision("2024-11-05")],
    clientInfo,
  });
  try {
    assert.is(peer.client.protocolVersion, "2024-11-05");
    const sum = await peer.client.callTool("add", { a: 1, b: 2 });
    assert.equal(sum.content, [{ type: "text", text: "3" }]);
  } finally {
    await peer.close();
  }
});

test.run();
