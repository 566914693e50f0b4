// The dual-era client's probe over the in-memory transport
// (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio#backward-compatibility):
// modern outcomes stay modern, everything else (errors of any code, garbage, silence) falls back to
// initialize on the same session; the era is remembered per server; an era can be pinned.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ProtocolVersionError, connectMcpClient, createMemoryTransportPair } from "@mcpgen/runtime";
import { EraCache, connectAnyEra, createServerSession, type AnyEraOptions } from "@mcpgen/runtime/internal";
import { bindings, dual } from "../helpers/binding.js";
import { scriptedPeer, type Answer, type Peer } from "./peer.js";

const clientInfo = { name: "probe-test", version: "1.0.0" };

/** A legacy server that answers initialize like our legacy lifecycle does, and `early` for anything before it. */
const legacyAnswer =
  (early: (m: { method?: string }) => ReturnType<Answer>): Answer =>
  (m) => {
    if (m.method === "initialize") {
      return {
        protocolVersion: "2025-11-25",
        capabilities: { tools: {} },
        serverInfo: { name: "legacy", version: "1" },
      };
    }
    if (m.method === "tools/list") return { tools: [] };
    return early(m);
  };

async function dualConnect(peer: Peer, extra: Partial<AnyEraOptions> = {}) {
  const errors: Error[] = [];
  const session = await connectAnyEra({
    transport: peer.transport,
    bindings: dual,
    clientInfo,
    timeout: 2000,
    eraCache: false,
    onerror: (e) => errors.push(e),
    ...extra,
  });
  return { session, errors };
}

test("a discover result means the 2026 era: no initialize is ever sent", async () => {
  const peer = await scriptedPeer(() => undefined);
  const { session } = await dualConnect(peer);
  assert.is(session.era, "modern");
  assert.is(session.protocolVersion, "2026-07-28");
  assert.equal(
    peer.seen.map((m) => m.method),
    ["server/discover"],
  );
  await session.close();
});

test("a -32022 naming a version we speak stays modern (retry with it), never initialize", async () => {
  let first = true;
  const peer = await scriptedPeer((m) => {
    if (m.method === "server/discover" && first) {
      first = false;
      return {
        error: {
          code: -32022,
          message: "Unsupported protocol version",
          data: { supported: ["2026-07-28"], requested: "x" },
        },
      };
    }
    return undefined;
  });
  const { session } = await dualConnect(peer);
  assert.is(session.era, "modern");
  assert.equal(
    peer.seen.map((m) => m.method),
    ["server/discover", "server/discover"],
  );
  await session.close();
});

for (const [what, early] of [
  ["-32601 method not found", () => ({ error: { code: -32601, message: "Method not found" } })],
  ["-32602 invalid params", () => ({ error: { code: -32602, message: "bad" } })],
  ["-32600 before initialize", () => ({ error: { code: -32600, message: "not initialized" } })],
  ["an implementation-defined -32000", () => ({ error: { code: -32000, message: "whatever" } })],
  ["a garbage result", () => ({ hello: "world" })],
  [
    "a discover result listing only legacy versions",
    () => ({
      resultType: "complete",
      supportedVersions: ["2025-11-25"],
      capabilities: {},
      ttlMs: 0,
      cacheScope: "public",
    }),
  ],
] as const) {
  test(`probe answered with ${what}: legacy handshake on the same session, ids keep counting`, async () => {
    const peer = await scriptedPeer(legacyAnswer(early as () => ReturnType<Answer>));
    const { session, errors } = await dualConnect(peer);
    assert.is(session.era, "legacy");
    assert.is(session.protocolVersion, "2025-11-25");
    assert.equal(
      peer.seen.map((m) => m.method),
      ["server/discover", "initialize", "notifications/initialized"],
    );
    assert.is(peer.seen[1]!.id, 1, "initialize does not reuse the probe's id");
    assert.ok(errors.some((e) => /falling back to initialize/.test(e.message)));
    await session.request("tools/list");
    await session.close();
  });
}

test("a server that never answers the probe: legacy after the probe timeout; its late answer is dropped", async () => {
  let probeId: string | number | undefined;
  const peer = await scriptedPeer(
    legacyAnswer((m) => {
      probeId = (m as { id?: string | number }).id;
      return null;
    }),
  );
  const started = Date.now();
  const { session, errors } = await dualConnect(peer, { probeTimeout: 100 });
  assert.is(session.era, "legacy");
  assert.ok(Date.now() - started < 1500, "bounded by the probe timeout");
  assert.not.ok(
    peer.seen.some((m) => m.method === "notifications/cancelled"),
    "a legacy server sees nothing but initialize after the probe",
  );
  peer.send({ jsonrpc: "2.0", id: probeId!, error: { code: -32601, message: "late" } });
  await new Promise((r) => setTimeout(r, 5));
  assert.not.ok(
    errors.some((e) => /unknown id/.test(e.message)),
    "the late probe answer is dropped quietly",
  );
  await session.close();
});

test("our own legacy server (no 2026 binding) refuses the probe and is served in the legacy era", async () => {
  const [ct, st] = createMemoryTransportPair();
  await createServerSession({
    transport: st,
    bindings,
    serverInfo: { name: "ours", version: "1" },
    capabilities: { tools: {} },
    handlers: { "tools/list": () => ({ tools: [] }) },
  });
  const client = await connectMcpClient(ct, { bindings: dual, clientInfo, timeout: 2000, eraCache: false });
  assert.is(client.era, "legacy");
  assert.is(client.serverInfo.name, "ours");
  assert.equal(await client.listTools(), []);
  await client.close();
});

test("the era cache: a server found legacy is not probed again; a failed connection forgets it", async () => {
  const cache = new EraCache();
  const peer = await scriptedPeer(legacyAnswer(() => ({ error: { code: -32601, message: "nope" } })));
  const first = await connectAnyEra({
    transport: peer.transport,
    bindings: dual,
    clientInfo,
    timeout: 2000,
    eraCache: cache,
  });
  assert.is(cache.get(peer.transport), "legacy");
  await first.close();
  // A second client on the same (stdio-like) transport object would skip the probe; an HTTP URL key works the same.
  const fake = { url: new URL("http://127.0.0.1:1/mcp") } as never;
  cache.set(fake, "legacy");
  assert.is(
    cache.get({ url: new URL("http://127.0.0.1:1/mcp") } as never),
    "legacy",
    "HTTP servers are keyed by endpoint",
  );
  cache.delete(fake);
  assert.is(cache.get(fake), undefined);

  const remembered = await scriptedPeer(legacyAnswer(() => ({ error: { code: -32601, message: "nope" } })));
  cache.set(remembered.transport, "legacy");
  const s = await connectAnyEra({
    transport: remembered.transport,
    bindings: dual,
    clientInfo,
    timeout: 2000,
    eraCache: cache,
  });
  assert.equal(
    remembered.seen.map((m) => m.method),
    ["initialize", "notifications/initialized"],
    "no probe for a server known to be legacy",
  );
  await s.close();

  const modernNow = await scriptedPeer((m) =>
    m.method === "initialize"
      ? { error: { code: -32022, message: "modern only", data: { supported: ["2026-07-28"] } } }
      : undefined,
  );
  cache.set(modernNow.transport, "legacy");
  await connectAnyEra({
    transport: modernNow.transport,
    bindings: dual,
    clientInfo,
    timeout: 2000,
    eraCache: cache,
  }).then(
    () => assert.unreachable(),
    () => {},
  );
  assert.is(cache.get(modernNow.transport), undefined, "the stale legacy entry is forgotten");
});

test("pinning: era 'legacy' never probes; era 'modern' never falls back", async () => {
  const legacy = await scriptedPeer(legacyAnswer(() => null));
  const l = await connectAnyEra({
    transport: legacy.transport,
    bindings: dual,
    clientInfo,
    timeout: 2000,
    era: "legacy",
    eraCache: false,
  });
  assert.is(l.era, "legacy");
  assert.equal(legacy.seen[0]!.method, "initialize");
  await l.close();

  const named = await scriptedPeer(legacyAnswer(() => null));
  const n = await connectAnyEra({
    transport: named.transport,
    bindings: dual,
    clientInfo,
    timeout: 2000,
    protocolVersion: "2025-11-25",
    eraCache: false,
  });
  assert.is(n.era, "legacy", "naming a legacy protocolVersion means the legacy era");
  assert.equal(named.seen[0]!.method, "initialize");
  await n.close();

  const old = await scriptedPeer(legacyAnswer(() => ({ error: { code: -32601, message: "Method not found" } })));
  const e = await connectAnyEra({
    transport: old.transport,
    bindings: dual,
    clientInfo,
    timeout: 2000,
    era: "modern",
    eraCache: false,
  }).catch((x: unknown) => x);
  assert.instance(e, Error);
  assert.not.ok(old.seen.some((m) => m.method === "initialize"));

  const noCommon = await scriptedPeer(() => ({
    error: { code: -32022, message: "no", data: { supported: ["2030-01-01"] } },
  }));
  const e2 = await connectAnyEra({
    transport: noCommon.transport,
    bindings: dual,
    clientInfo,
    timeout: 2000,
    eraCache: false,
  }).catch((x: unknown) => x);
  assert.instance(e2, ProtocolVersionError, "a modern refusal without a common version is an error, not a fallback");
  assert.not.ok(noCommon.seen.some((m) => m.method === "initialize"));

  // A -32022 that lists a legacy version we speak (and no modern one) switches to the legacy lifecycle with it.
  const legacyListed = await scriptedPeer((m) =>
    m.method === "server/discover"
      ? { error: { code: -32022, message: "no", data: { supported: ["2025-06-18"] } } }
      : m.method === "initialize"
        ? { protocolVersion: m.params!.protocolVersion, capabilities: {}, serverInfo: { name: "old", version: "1" } }
        : null,
  );
  const s3 = await connectAnyEra({
    transport: legacyListed.transport,
    bindings: dual,
    clientInfo,
    timeout: 2000,
    eraCache: false,
  });
  assert.is(s3.era, "legacy");
  assert.is(s3.protocolVersion, "2025-06-18");
  assert.is(legacyListed.seen[1]!.params!.protocolVersion, "2025-06-18");
  await s3.close();
});

test.run();
