// What a transport delivers before McpServer.connect resolves (the HTTP server hands a POST over
// right after onsession) waits while the server loads what the connection needs, then reaches the
// session in order; a load that fails rejects connect and nothing else. This file runs in a process of its own, so its first connection finds the
// 2026-07-28 path not loaded yet (a dynamic import on Node) and connect has to hold messages.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createMcpServer } from "@mcpgen/runtime";
import { definition, handlers, META } from "./modern/fixture.js";
import { rejection, settle, withRawPeer } from "./helpers/peer.js";
import { modern } from "./helpers/binding.js";

test("requests delivered before connect resolves are answered in order once the session is built", async () => {
  const mcp = createMcpServer(definition(["2026-07-28"]), handlers(), { bindings: [modern] });
  const [st, peer] = withRawPeer();
  let connected = false;
  const connecting = mcp.connect(st).then(() => (connected = true));
  for (const id of [1, 2, 3]) st.onmessage!({ jsonrpc: "2.0", id, method: "tools/list", params: { _meta: META } });
  assert.is(connected, false, "the messages arrived while connect was still loading");
  await connecting;
  const ids = [];
  for (let i = 0; i < 3; i++) ids.push((await peer.next()).id);
  assert.equal(ids, [1, 2, 3]);
  // Once connected the session reads the transport itself.
  await peer.send({ jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: META } });
  assert.is((await peer.next()).id, 4);
  await mcp.close();
});

const unhandled: unknown[] = [];
process.on("unhandledRejection", (e) => unhandled.push(e));

test("a load that fails rejects connect alone: no other promise is left rejected, the transport as it was", async () => {
  const def = { ...definition(["2026-07-28"]), skills: () => Promise.reject(new Error("skills unreadable")) };
  const mcp = createMcpServer(def, handlers(), { bindings: [modern] });
  const [st, peer] = withRawPeer();
  const e = await rejection(mcp.connect(st));
  assert.match(String(e), /skills unreadable/);
  await settle();
  assert.equal(unhandled, []);
  assert.is(st.onmessage, undefined);
  assert.equal(peer.inbox, []);
  await mcp.close();
});

test.run();
