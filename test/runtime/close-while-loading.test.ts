// A connection whose transport closes while the server is still loading what its first message
// needs (the 2026-07-28 path, the revision's method table, tasks): nothing is served on it
// afterwards, no session is left registered, and nothing is thrown or left unhandled.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createMcpServer, type ProtocolBinding } from "@mcpgen/runtime";
import { lazyRevision, type RevisionInfo } from "@mcpgen/runtime/internal";
import { definition, handlers, META } from "./modern/fixture.js";
import { settle, sleep, withRawPeer } from "./helpers/peer.js";

/** 2026-07-28 and 2025-11-25 with tables that load only when `release()` is called. */
function gatedBindings(): { bindings: ProtocolBinding[]; release: () => void; loads: string[] } {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const loads: string[] = [];
  const bindings = (["2026-07-28", "2025-11-25"] as const).map((revision) =>
    lazyRevision({ revision, era: revision === "2026-07-28" ? "modern" : "legacy", batching: false }, async () => {
      loads.push(revision);
      await gate;
      return (await import(`@mcpgen/runtime/protocol/${revision}/methods`)) as RevisionInfo;
    }),
  );
  return { bindings, release, loads };
}

/** Registered connections of both eras (the modern ones are private: read for this check only). */
function registered(mcp: ReturnType<typeof createMcpServer>): number {
  return mcp.sessions.length + (mcp as unknown as { modernConnections: Set<unknown> }).modernConnections.size;
}

const unhandled: unknown[] = [];
process.on("unhandledRejection", (e) => unhandled.push(e));

// First in the file: the 2026-07-28 path is not loaded yet in this process, so its import is still
// pending when the transport closes (the message is handed to the server directly, in the same turn).
test("a connection that closes while the 2026-07-28 path first loads gets no session built afterwards", async () => {
  const { bindings, release } = gatedBindings();
  release();
  const mcp = createMcpServer(definition(["2026-07-28", "2025-11-25"]), handlers(), { bindings, onerror: () => {} });
  const [st, peer] = withRawPeer();
  await mcp.connect(st);
  st.onmessage!({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } });
  await st.close();
  await sleep(50);
  assert.equal(peer.inbox, []);
  assert.is(registered(mcp), 0, "no session was built for the closed connection");
  // the path did load: a new connection is served at once
  const [st2, peer2] = withRawPeer();
  await mcp.connect(st2);
  await peer2.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: META } });
  assert.is((await peer2.next()).id, 2);
  await mcp.close();
  assert.equal(unhandled, []);
});

for (const era of ["modern", "legacy"] as const) {
  test(`a ${era} first request whose transport closes while its table loads is never answered, and leaves no session`, async () => {
    const { bindings, release, loads } = gatedBindings();
    const errors: Error[] = [];
    const mcp = createMcpServer(definition(["2026-07-28", "2025-11-25"]), handlers(), {
      bindings,
      onerror: (e) => errors.push(e),
    });
    const [st, peer] = withRawPeer();
    await mcp.connect(st);
    const request =
      era === "modern"
        ? { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } }
        : {
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
          };
    await peer.send(request);
    for (let i = 0; i < 20 && loads.length === 0; i++) await settle();
    assert.equal(loads, [era === "modern" ? "2026-07-28" : "2025-11-25"], "the first request waits for its table");
    await peer.transport.close();
    await settle();
    release();
    await sleep(20);
    assert.equal(peer.inbox, [], "nothing is sent on a closed connection");
    assert.is(registered(mcp), 0, "no session stays registered for the closed connection");
    await mcp.close();
    assert.equal(unhandled, []);
    assert.ok(
      errors.every((e) => !/could not be loaded|Internal error/.test(e.message)),
      errors.map((e) => e.message).join("; "),
    );
  });
}

test("many connections closing while the 2026-07-28 path is first loaded leave nothing registered", async () => {
  const { bindings, release } = gatedBindings();
  const mcp = createMcpServer(definition(["2026-07-28", "2025-11-25"]), handlers(), { bindings, onerror: () => {} });
  for (let i = 0; i < 50; i++) {
    const [st, peer] = withRawPeer();
    await mcp.connect(st);
    await peer.send({ jsonrpc: "2.0", id: i, method: "tools/list", params: { _meta: META } });
    await settle();
    await peer.transport.close();
  }
  release();
  await sleep(20);
  assert.is(registered(mcp), 0);
  await mcp.close();
  assert.equal(unhandled, []);
});

test.run();
