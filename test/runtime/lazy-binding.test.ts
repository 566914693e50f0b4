// Validators load per method: a server or client imports a method's validator module when a
// connection first needs it (counted here through the import thunks), once, and version
// negotiation works for every revision without loading anything.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createMemoryTransportPair, type ProtocolBinding } from "@mcpgen/runtime";
import { connectAnyEra, connectClient, lazyBinding, type RevisionInfo } from "@mcpgen/runtime/internal";
import type { ValidatorLoaders, ValidatorModule } from "@mcpgen/runtime/abi/v8";
import { REVISIONS } from "./helpers/binding.js";
import { definition, handlers, META } from "./modern/fixture.js";
import { createMcpServer } from "@mcpgen/runtime";
import { rawPeer } from "./helpers/peer.js";

const ALL = ["2026-07-28", ...REVISIONS] as const;

interface Counted {
  bindings: ProtocolBinding[];
  /** How many validator modules of each revision were imported. */
  loads: Record<string, number>;
  /** Which, as "<revision> params|results <method>". */
  loaded: string[];
}

/** Lazy bindings of `revisions` whose thunks count their calls; `fail` revisions fail their first import once. */
async function counted(
  revisions: readonly string[],
  options: { fail?: string[]; delayMs?: number } = {},
): Promise<Counted> {
  const loads: Record<string, number> = Object.fromEntries(revisions.map((r) => [r, 0]));
  const loaded: string[] = [];
  const failing = new Set(options.fail ?? []);
  const bindings: ProtocolBinding[] = [];
  for (const rev of revisions) {
    const info = (await import(`@mcpgen/runtime/protocol/${rev}/methods`)) as RevisionInfo;
    const wrap = (kind: "params" | "results") =>
      Object.fromEntries(
        Object.entries(info.validators[kind]).map(([method, thunk]) => [
          method,
          async (): Promise<ValidatorModule> => {
            loads[rev]!++;
            loaded.push(`${rev} ${kind} ${method}`);
            if (options.delayMs !== undefined) await new Promise((r) => setTimeout(r, options.delayMs));
            if (failing.delete(rev)) throw new Error(`cannot find module for ${rev}`);
            return thunk();
          },
        ]),
      );
    const validators: ValidatorLoaders = { params: wrap("params"), results: wrap("results") };
    bindings.push(lazyBinding({ ...info, validators }));
  }
  return { bindings, loads, loaded };
}

const none = () => Object.fromEntries(ALL.map((r) => [r, 0]));

test("a validator read before it is loaded is a clear error", async () => {
  const { bindings } = await counted(["2025-11-25"]);
  assert.throws(
    () => bindings[0]!.params["tools/call"]!({}),
    /params validator of tools\/call \(protocol revision 2025-11-25\) was used before it was loaded/,
  );
  assert.is(bindings[0]!.revision, "2025-11-25");
  assert.ok(Object.keys(bindings[0]!.methods).length > 0, "the method table is there at once");
});

test("a server that saw initialize, notifications/initialized, tools/list and tools/call loaded only what it received", async () => {
  const server = await counted(["2025-11-25"]);
  const mcp = createMcpServer(definition(["2025-11-25"]), handlers(), { bindings: server.bindings, onerror: () => {} });
  const [ct, st] = createMemoryTransportPair();
  await mcp.connect(st);
  const session = await connectClient({
    transport: ct,
    bindings: (await counted(["2025-11-25"])).bindings,
    clientInfo: { name: "c", version: "1" },
  });
  await session.request("tools/list", {});
  await session.request("tools/call", { name: "echo", arguments: { region: "x" } });
  assert.equal(server.loaded.sort(), [
    "2025-11-25 params initialize",
    "2025-11-25 params tools/call",
    "2025-11-25 params tools/list",
  ]);
  await session.close();
  await mcp.close();
});

for (const rev of REVISIONS) {
  test(`legacy ${rev}: negotiated with lazy bindings on both sides, and only ${rev} is loaded`, async () => {
    const server = await counted(ALL);
    const client = await counted([rev]);
    const mcp = createMcpServer(definition([...ALL]), handlers(), { bindings: server.bindings, onerror: () => {} });
    const [ct, st] = createMemoryTransportPair();
    await mcp.connect(st);
    assert.equal(
      Object.values(server.loads),
      ALL.map(() => 0),
      "nothing loaded at connect",
    );
    const session = await connectClient({
      transport: ct,
      bindings: client.bindings,
      clientInfo: { name: "c", version: "1" },
    });
    assert.is(session.protocolVersion, rev);
    const tools = (await session.request("tools/list", {})) as { tools: unknown[] };
    assert.ok(tools.tools.length > 0);
    const used = server.loads[rev]!;
    assert.ok(used > 0, "the negotiated revision's validators were loaded");
    assert.equal(server.loads, { ...none(), [rev]: used });
    assert.ok(client.loads[rev]! > 0);
    // A second connection on the same revision reuses what was loaded.
    const [ct2, st2] = createMemoryTransportPair();
    await mcp.connect(st2);
    const again = await connectClient({
      transport: ct2,
      bindings: client.bindings,
      clientInfo: { name: "c", version: "1" },
    });
    assert.is(again.protocolVersion, rev);
    assert.is(server.loads[rev], used);
    await session.close();
    await again.close();
    await mcp.close();
  });
}

test("2026-07-28: the revision a request names in _meta is loaded, the legacy ones are not", async () => {
  const server = await counted(ALL);
  const client = await counted(ALL);
  const mcp = createMcpServer(definition([...ALL]), handlers(), { bindings: server.bindings, onerror: () => {} });
  const [ct, st] = createMemoryTransportPair();
  await mcp.connect(st);
  const session = await connectAnyEra({
    transport: ct,
    bindings: client.bindings,
    clientInfo: { name: "c", version: "1" },
  });
  assert.is(session.era, "modern");
  const listed = (await session.request("tools/list", {})) as { tools: unknown[] };
  assert.ok(listed.tools.length > 0);
  assert.equal(server.loaded, ["2026-07-28 params server/discover", "2026-07-28 params tools/list"]);
  assert.equal(client.loads, { ...none(), "2026-07-28": client.loads["2026-07-28"]! });
  assert.ok(
    client.loaded.every((l) => l.startsWith("2026-07-28 results ")),
    client.loaded.join(),
  );
  await session.close();
  await mcp.close();
});

test("messages that arrive while a revision loads are handled in order once it has", async () => {
  const server = await counted(["2026-07-28"], { delayMs: 20 });
  const mcp = createMcpServer(definition(["2026-07-28"]), handlers(), { bindings: server.bindings, onerror: () => {} });
  const [ct, st] = createMemoryTransportPair();
  await mcp.connect(st);
  const peer = rawPeer(ct);
  for (let id = 1; id <= 5; id++)
    await peer.send({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "echo", arguments: { region: `r${id}` }, _meta: META },
    });
  const ids: number[] = [];
  for (let i = 0; i < 5; i++) {
    const m = await peer.next(2000);
    ids.push(m.id);
    assert.is(m.result?.content?.[0]?.text, `region=r${m.id}`);
  }
  assert.equal(ids, [1, 2, 3, 4, 5]);
  assert.equal(server.loaded, ["2026-07-28 params tools/call"]);
  await mcp.close();
});

test("a revision that fails to load answers its request with an internal error; the connection survives and the next use retries", async () => {
  const server = await counted(["2026-07-28"], { fail: ["2026-07-28"] });
  const errors: Error[] = [];
  const mcp = createMcpServer(definition(["2026-07-28"]), handlers(), {
    bindings: server.bindings,
    onerror: (e) => errors.push(e),
  });
  const [ct, st] = createMemoryTransportPair();
  await mcp.connect(st);
  const peer = rawPeer(ct);
  await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } });
  const refused = await peer.next(2000);
  assert.is(refused.id, 1);
  assert.is(refused.error?.code, -32603);
  assert.match(
    refused.error?.message,
    /protocol revision 2026-07-28: the params validator of tools\/list could not be loaded: cannot find module/,
  );
  assert.ok(
    errors.some((e) => /could not be loaded/.test(e.message)),
    "reported to onerror",
  );
  await peer.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: META } });
  const listed = await peer.next(2000);
  assert.is(listed.id, 2);
  assert.ok(Array.isArray(listed.result?.tools), JSON.stringify(listed));
  assert.is(server.loads["2026-07-28"], 2);
  await mcp.close();
});

test("a peer the server trusts loads no validators at all", async () => {
  const server = await counted(["2026-07-28"]);
  const mcp = createMcpServer(definition(["2026-07-28"]), handlers(), {
    bindings: server.bindings,
    trustPeer: true,
    onerror: () => {},
  });
  const [ct, st] = createMemoryTransportPair();
  await mcp.connect(st);
  const peer = rawPeer(ct);
  await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } });
  const listed = await peer.next(2000);
  assert.ok(Array.isArray(listed.result?.tools));
  assert.is(server.loads["2026-07-28"], 0);
  await mcp.close();
});

test.run();
