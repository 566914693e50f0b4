// Method tables load per revision: a generated server names each revision's head (version, era,
// batching) and an import thunk of its methods module, and loads a table when a connection first
// uses that revision. Counted here through the thunks.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { CapabilityError, createMcpServer, createMemoryTransportPair, type ProtocolBinding } from "@mcpgen/runtime";
import {
  connectAnyEra,
  connectClient,
  createServerSession,
  lazyRevision,
  type RevisionInfo,
} from "@mcpgen/runtime/internal";
import { REVISIONS } from "./helpers/binding.js";
import { definition, handlers, META } from "./modern/fixture.js";
import { rawPeer, rejection } from "./helpers/peer.js";

const ALL = ["2026-07-28", ...REVISIONS] as const;
const HEADS: Record<string, { era: "legacy" | "modern"; batching: boolean }> = {
  "2026-07-28": { era: "modern", batching: false },
  "2025-11-25": { era: "legacy", batching: false },
  "2025-06-18": { era: "legacy", batching: false },
  "2025-03-26": { era: "legacy", batching: true },
  "2024-11-05": { era: "legacy", batching: false },
};

interface Tabled {
  bindings: ProtocolBinding[];
  /** Revisions whose methods module was imported, in order (a failed import counts too). */
  tables: string[];
}

/** Lazy-table bindings as generated `bindings.ts` makes them; `fail` revisions fail their first import once. */
function tabled(
  revisions: readonly string[],
  options: { fail?: string[]; delayMs?: number; module?: Record<string, string> } = {},
): Tabled {
  const tables: string[] = [];
  const failing = new Set(options.fail ?? []);
  const bindings = revisions.map((revision) =>
    lazyRevision({ revision, ...HEADS[revision]! }, async () => {
      tables.push(revision);
      if (options.delayMs !== undefined) await new Promise((r) => setTimeout(r, options.delayMs));
      if (failing.delete(revision)) throw new Error(`cannot find module for ${revision}`);
      const from = options.module?.[revision] ?? revision;
      return (await import(`@mcpgen/runtime/protocol/${from}/methods`)) as RevisionInfo;
    }),
  );
  return { bindings, tables };
}

const initialize = (id: number, protocolVersion: string) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

test("nothing of a revision loads before a connection uses it, and reading its table early is a clear error", async () => {
  const server = tabled(ALL);
  const mcp = createMcpServer(definition([...ALL]), handlers(), { bindings: server.bindings, onerror: () => {} });
  const [, st] = createMemoryTransportPair();
  await mcp.connect(st);
  assert.equal(server.tables, []);
  assert.equal(mcp.supportedVersions, [...ALL], "negotiation knows every revision from its head");
  const b = server.bindings.find((x) => x.revision === "2025-11-25")!;
  assert.equal([b.revision, b.era, b.batching], ["2025-11-25", "legacy", false]);
  assert.throws(
    () => b.methods["tools/call"],
    /method table of protocol revision 2025-11-25 was used before the revision was loaded/,
  );
  await mcp.close();
});

for (const rev of REVISIONS) {
  test(`dual-era server, legacy ${rev} negotiated: only ${rev}'s table is loaded`, async () => {
    const server = tabled(ALL);
    const mcp = createMcpServer(definition([...ALL]), handlers(), { bindings: server.bindings, onerror: () => {} });
    const [ct, st] = createMemoryTransportPair();
    // No era on the transport: served as stdio is, both eras behind the era router.
    await mcp.connect(st);
    const session = await connectClient({
      transport: ct,
      bindings: tabled([rev]).bindings,
      clientInfo: { name: "c", version: "1" },
    });
    assert.is(session.protocolVersion, rev);
    const listed = (await session.request("tools/list", {})) as { tools: unknown[] };
    assert.ok(listed.tools.length > 0);
    await session.request("tools/call", { name: "echo", arguments: { region: "x" } });
    assert.equal(server.tables, [rev]);
    // A second connection on the same revision imports nothing more.
    const [ct2, st2] = createMemoryTransportPair();
    await mcp.connect(st2);
    const again = await connectClient({
      transport: ct2,
      bindings: tabled([rev]).bindings,
      clientInfo: { name: "c", version: "1" },
    });
    await again.request("tools/list", {});
    assert.equal(server.tables, [rev]);
    await session.close();
    await again.close();
    await mcp.close();
  });
}

test("dual-era server, 2026-07-28 request: only 2026-07-28's table is loaded", async () => {
  const server = tabled(ALL);
  const mcp = createMcpServer(definition([...ALL]), handlers(), { bindings: server.bindings, onerror: () => {} });
  const [ct, st] = createMemoryTransportPair();
  await mcp.connect(st);
  const session = await connectAnyEra({
    transport: ct,
    bindings: tabled(ALL).bindings,
    clientInfo: { name: "c", version: "1" },
  });
  assert.is(session.era, "modern");
  await session.request("tools/list", {});
  assert.equal(server.tables, ["2026-07-28"]);
  await session.close();
  await mcp.close();
});

test("a dual-era client loads the tables of the era it speaks: none of the legacy ones when it stays in 2026-07-28", async () => {
  const mcp = createMcpServer(definition([...ALL]), handlers(), { bindings: tabled(ALL).bindings, onerror: () => {} });
  const [ct, st] = createMemoryTransportPair();
  await mcp.connect(st);
  const client = tabled(ALL);
  const session = await connectAnyEra({
    transport: ct,
    bindings: client.bindings,
    clientInfo: { name: "c", version: "1" },
  });
  assert.is(session.era, "modern");
  await session.request("tools/list", {});
  assert.equal(client.tables, ["2026-07-28"]);
  await session.close();
  await mcp.close();
});

test("a dual-era client that falls back to the legacy handshake loads the legacy tables then, and a table that fails to load fails the connect", async () => {
  const legacyOnly = [...REVISIONS];
  const mcp = createMcpServer(definition(legacyOnly), handlers(), {
    bindings: tabled(legacyOnly).bindings,
    onerror: () => {},
  });
  const [ct, st] = createMemoryTransportPair();
  await mcp.connect(st);
  const client = tabled(ALL);
  const session = await connectAnyEra({
    transport: ct,
    bindings: client.bindings,
    clientInfo: { name: "c", version: "1" },
    onerror: () => {},
  });
  assert.is(session.era, "legacy");
  assert.is(session.protocolVersion, "2025-11-25");
  await session.request("tools/list", {});
  assert.equal(
    client.tables,
    ["2026-07-28", ...REVISIONS],
    "the 2026-07-28 table for the probe, then every legacy revision the handshake may settle on",
  );
  await session.close();

  const [ct2, st2] = createMemoryTransportPair();
  await mcp.connect(st2);
  const failing = tabled(ALL, { fail: [REVISIONS[1]!] });
  const e = await rejection(
    connectAnyEra({
      transport: ct2,
      bindings: failing.bindings,
      clientInfo: { name: "c", version: "1" },
      onerror: () => {},
    }),
  );
  assert.match(
    String(e.message),
    new RegExp(`protocol revision ${REVISIONS[1]}: its method table could not be loaded`),
  );
  await mcp.close();
});

test("messages that arrive while the negotiated table loads are held and handled in order", async () => {
  const server = tabled(ALL, { delayMs: 20 });
  const mcp = createMcpServer(definition([...ALL]), handlers(), { bindings: server.bindings, onerror: () => {} });
  const [ct, st] = createMemoryTransportPair();
  await mcp.connect(st);
  const peer = rawPeer(ct);
  await peer.send(initialize(1, "2025-06-18"));
  await peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await peer.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
  for (let id = 3; id <= 5; id++)
    await peer.send({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "echo", arguments: { region: `r${id}` } },
    });
  const got: unknown[] = [];
  for (let i = 0; i < 5; i++) got.push(await peer.next(2000));
  assert.equal(
    got.map((m: any) => m.id),
    [1, 2, 3, 4, 5],
  );
  assert.is((got[0] as any).result.protocolVersion, "2025-06-18");
  assert.ok(Array.isArray((got[1] as any).result.tools));
  assert.is((got[4] as any).result.content[0].text, "region=r5");
  assert.equal(server.tables, ["2025-06-18"]);
  await mcp.close();
});

test("a table that fails to load answers -32603 naming the revision and cause; the connection survives and the next use retries", async () => {
  const errors: Error[] = [];
  const server = tabled(ALL, { fail: ["2025-03-26"] });
  const mcp = createMcpServer(definition([...ALL]), handlers(), {
    bindings: server.bindings,
    onerror: (e) => errors.push(e),
  });
  const [ct, st] = createMemoryTransportPair();
  await mcp.connect(st);
  const peer = rawPeer(ct);
  await peer.send(initialize(1, "2025-03-26"));
  const refused = await peer.next(2000);
  assert.is(refused.id, 1);
  assert.is(refused.error?.code, -32603);
  assert.match(
    refused.error?.message,
    /protocol revision 2025-03-26: its method table could not be loaded: cannot find module for 2025-03-26/,
  );
  assert.ok(
    errors.some((e) => /method table could not be loaded/.test(e.message)),
    "reported to onerror",
  );
  await peer.send(initialize(2, "2025-03-26"));
  const ok = await peer.next(2000);
  assert.is(ok.id, 2);
  assert.is(ok.result?.protocolVersion, "2025-03-26");
  assert.equal(server.tables, ["2025-03-26", "2025-03-26"]);
  await mcp.close();
});

test("a 2026-07-28 table that fails to load answers -32603 and is retried", async () => {
  const server = tabled(["2026-07-28"], { fail: ["2026-07-28"] });
  const mcp = createMcpServer(definition(["2026-07-28"]), handlers(), { bindings: server.bindings, onerror: () => {} });
  const [ct, st] = createMemoryTransportPair();
  await mcp.connect(st);
  const peer = rawPeer(ct);
  await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } });
  const refused = await peer.next(2000);
  assert.is(refused.error?.code, -32603);
  assert.match(refused.error?.message, /protocol revision 2026-07-28: its method table could not be loaded/);
  await peer.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: META } });
  const listed = await peer.next(2000);
  assert.ok(Array.isArray(listed.result?.tools), JSON.stringify(listed));
  await mcp.close();
});

test("a methods module of another revision than the head names is refused with both named", async () => {
  const server = tabled(ALL, { module: { "2025-06-18": "2025-11-25" } });
  const mcp = createMcpServer(definition([...ALL]), handlers(), { bindings: server.bindings, onerror: () => {} });
  const [ct, st] = createMemoryTransportPair();
  await mcp.connect(st);
  const peer = rawPeer(ct);
  await peer.send(initialize(1, "2025-06-18"));
  const refused = await peer.next(2000);
  assert.is(refused.error?.code, -32603);
  assert.match(
    refused.error?.message,
    /protocol revision 2025-06-18: its method table could not be loaded: the module loaded is revision 2025-11-25 .* not the 2025-06-18/,
  );
  await mcp.close();
});

test("lazyRevision refuses a head that is not a revision's", () => {
  assert.throws(
    () =>
      lazyRevision(
        { revision: "2025-06-18", era: "middle" as "legacy", batching: false },
        async () => ({}) as RevisionInfo,
      ),
    /expected \{ revision, era, batching \}/,
  );
  assert.throws(
    () => lazyRevision({ revision: "2025-06-18", era: "legacy", batching: false }, undefined as never),
    /import/,
  );
});

test("createServerSession with lazy tables checks handlers against every revision and holds early messages", async () => {
  const [ct, st] = createMemoryTransportPair();
  const refused = await rejection(
    createServerSession({
      transport: st,
      bindings: tabled(REVISIONS).bindings,
      serverInfo: { name: "s", version: "1" },
      handlers: { "no/such": () => ({}) },
    }),
  );
  assert.instance(refused, CapabilityError);
  assert.match(refused.message, /no given protocol revision defines it/);
  const server = tabled(REVISIONS, { delayMs: 20 });
  const peer = rawPeer(ct);
  const created = createServerSession({
    transport: st,
    bindings: server.bindings,
    serverInfo: { name: "s", version: "1" },
    capabilities: { tools: {} },
    handlers: { "tools/list": () => ({ tools: [] }) },
  });
  // Sent before the session exists (the tables are still loading): held, then answered.
  await peer.send(initialize(1, "2024-11-05"));
  await created;
  const init = await peer.next(2000);
  assert.is(init.result?.protocolVersion, "2024-11-05");
  await peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await peer.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
  assert.equal((await peer.next(2000)).result, { tools: [] });
  assert.equal(server.tables.sort(), [...REVISIONS].sort());
  await (await created).close();
});

test.run();
