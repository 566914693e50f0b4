// 2026-07-28 lifecycle on one connection: per-request _meta validation order, discover, resultType,
// serverInfo, caching hints, removed methods, log levels, resource-not-found, and both eras at once.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { connect, definition, server } from "./fixture.js";

const V = "io.modelcontextprotocol/protocolVersion";
const CAPS = "io.modelcontextprotocol/clientCapabilities";

test("_meta is checked in order: missing keys (-32602) before the version (-32022) before the method (-32601)", async () => {
  const s = server();
  const peer = await connect(s);
  let r = await peer.call("server/discover", {}, null);
  assert.is(r.error.code, -32602);
  assert.equal(r.error.data.missing, [V, CAPS]);
  r = await peer.call("no/such", {}, { [V]: "v999", [CAPS]: undefined });
  assert.is(r.error.code, -32602, "missing capabilities wins over a bad version");
  r = await peer.call("no/such", {}, { [V]: "v999" });
  assert.is(r.error.code, -32022);
  assert.equal(r.error.data, { supported: ["2026-07-28", "2025-11-25"], requested: "v999" });
  for (const m of ["ping", "logging/setLevel", "resources/subscribe", "unknown/method", "initialize"]) {
    r = await peer.call(m, { uri: "u://static", level: "debug" });
    assert.is(r.error.code, -32601, m);
  }
  r = await peer.call("tools/list", {}, { "io.modelcontextprotocol/logLevel": "loud" });
  assert.is(r.error.code, -32602);
  r = await peer.call("tools/list", {}, { [CAPS]: [] });
  assert.is(r.error.code, -32602);
  await s.close();
});

test("every result carries resultType and serverInfo; discover and lists carry caching hints", async () => {
  const s = server();
  const peer = await connect(s);
  const d = (await peer.call("server/discover")).result;
  assert.equal(d.supportedVersions, ["2026-07-28", "2025-11-25"]);
  assert.is(d.resultType, "complete");
  assert.equal(d._meta["io.modelcontextprotocol/serverInfo"], { name: "dual", version: "1.2.3" });
  assert.ok(d.capabilities.tools);
  assert.is(d.ttlMs, 60000);
  assert.is(d.cacheScope, "public");
  const tools = (await peer.call("tools/list")).result;
  assert.is(tools.tools.length, 5);
  assert.is(tools.ttlMs, 60000);
  const call = (await peer.call("tools/call", { name: "echo", arguments: { region: "eu" } })).result;
  assert.is(call.resultType, "complete");
  assert.is(call.ttlMs, undefined);
  assert.equal(call.content, [{ type: "text", text: "region=eu" }]);
  const read = (await peer.call("resources/read", { uri: "u://item/7" })).result;
  assert.is(read.ttlMs, 0);
  assert.is(read.cacheScope, "private");
  assert.is(read.contents[0].text, "item 7");
  await s.close();
});

test("the manifest's cache settings decide ttlMs and cacheScope", async () => {
  const s = server(
    {},
    definition(undefined, {
      ttlMs: 5000,
      scope: "private",
      resources: { "u://static": { ttlMs: 90, scope: "public" } },
      resourceTemplates: { item: { ttlMs: 7 } },
    }),
  );
  const peer = await connect(s);
  const list = (await peer.call("prompts/list")).result;
  assert.equal([list.ttlMs, list.cacheScope], [5000, "private"]);
  const st = (await peer.call("resources/read", { uri: "u://static" })).result;
  assert.equal([st.ttlMs, st.cacheScope], [90, "public"]);
  const item = (await peer.call("resources/read", { uri: "u://item/1" })).result;
  assert.equal([item.ttlMs, item.cacheScope], [7, "private"]);
  await s.close();
});

test("resources/read of an unknown URI is -32602 with data.uri in 2026-07-28 (-32002 stays legacy)", async () => {
  const s = server();
  const peer = await connect(s);
  const r = await peer.call("resources/read", { uri: "u://nope" });
  assert.is(r.error.code, -32602);
  assert.equal(r.error.data, { uri: "u://nope" });
  await s.close();
});

test("notifications/message only when the request's _meta asks for a level, at or above it", async () => {
  const s = server();
  const peer = await connect(s);
  let r = await peer.call("tools/call", { name: "log", arguments: {} });
  assert.is(r.result.content[0].text, "logged");
  assert.is(peer.seen.length, 0);
  r = await peer.call("tools/call", { name: "log", arguments: {} }, { "io.modelcontextprotocol/logLevel": "warning" });
  assert.equal(
    peer.seen.map((m) => [m.method, m.params.level]),
    [["notifications/message", "error"]],
  );
  await s.close();
});

test("a client call the request's capabilities do not allow is -32021 with requiredCapabilities", async () => {
  const s = server();
  const peer = await connect(s);
  const r = await peer.call("tools/call", { name: "sample", arguments: {} }, { [CAPS]: {} });
  assert.is(r.error.code, -32021);
  assert.equal(r.error.data, { requiredCapabilities: { sampling: {} } });
  await s.close();
});

test("one connection serves a legacy client (initialize) and modern requests at the same time", async () => {
  const s = server();
  const peer = await connect(s);
  assert.ok((await peer.call("server/discover")).result);
  const init = await peer.call(
    "initialize",
    { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } },
    null,
  );
  assert.is(init.result.protocolVersion, "2025-11-25");
  await peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  const legacyList = await peer.call("tools/list", {}, null);
  assert.is(legacyList.result.resultType, undefined, "legacy results carry no resultType");
  assert.is(legacyList.result.tools.length, 5);
  const modernList = await peer.call("tools/list");
  assert.is(modernList.result.resultType, "complete");
  assert.is((await peer.call("ping", {}, null)).result !== undefined, true);
  await s.close();
});

test("a modern-only server answers a legacy initialize with the -32022 shape naming its versions", async () => {
  const s = server({}, definition(["2026-07-28"]));
  const peer = await connect(s);
  const r = await peer.call(
    "initialize",
    { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } },
    null,
  );
  assert.is(r.error.code, -32022);
  assert.equal(r.error.data, { supported: ["2026-07-28"], requested: "2025-11-25" });
  assert.ok((await peer.call("tools/list")).result);
  await s.close();
});

test("on a shared connection: a bare request before initialize is modern (refused for its _meta), ping stays legacy", async () => {
  const s = server();
  const peer = await connect(s);
  const bare = await peer.call("tools/list", {}, null);
  assert.is(bare.error.code, -32602);
  const ping = await peer.call("ping", {}, null);
  assert.equal(ping.result, {});
  await s.close();
});

test("a legacy-only server keeps answering modern-looking traffic from its legacy session", async () => {
  const s = server({}, definition(["2025-11-25"]));
  const peer = await connect(s);
  const r = await peer.call("tools/list");
  assert.is(r.error.code, -32600, "before initialize");
  await s.close();
});

test.run();
