// Peer garbage never throws out of the session, never leaks a pending request, and requests
// that can be identified always get an error response.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createMemoryTransportPair } from "@mcpgen/runtime";
import { Session } from "@mcpgen/runtime/internal";
import { byRevision, latest } from "./helpers/binding.js";
import { rawPeer, settle } from "./helpers/peer.js";

function prng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

const atoms: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  "",
  "x",
  "2.0",
  [],
  {},
  [1],
  { a: 1 },
  "tools/call",
  "notifications/cancelled",
  "notifications/progress",
  0,
  1,
  2,
];
const keys = [
  "jsonrpc",
  "id",
  "method",
  "params",
  "result",
  "error",
  "_meta",
  "progressToken",
  "requestId",
  "progress",
  "code",
  "message",
  "name",
  "uri",
];

function value(r: () => number, depth: number): unknown {
  if (depth > 2 || r() < 0.5) return atoms[Math.floor(r() * atoms.length)];
  if (r() < 0.2) return Array.from({ length: Math.floor(r() * 3) }, () => value(r, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(r() * 5); i > 0; i--) o[keys[Math.floor(r() * keys.length)]!] = value(r, depth + 1);
  return o;
}

for (const revision of ["2025-03-26", "2025-11-25"]) {
  test(`2000 random messages (${revision}): no throw, session survives, nothing leaks`, async () => {
    const [t, peerT] = createMemoryTransportPair();
    const session = new Session({ transport: t, side: "server", binding: byRevision(revision), onerror: () => {} });
    session.setRequestHandler("tools/call", (_p, ctx) => (void ctx.sendProgress(1).catch(() => {}), { content: [] }));
    void t.start();
    const peer = rawPeer(peerT);
    const r = prng(42);
    const crashes: unknown[] = [];
    t.onerror = (e) => crashes.push(e); // the memory transport reports exceptions thrown by onmessage here
    for (let i = 0; i < 2000; i++) {
      const m = value(r, 0);
      const withEnvelope =
        r() < 0.7 && typeof m === "object" && m !== null && !Array.isArray(m) ? { jsonrpc: "2.0", ...m } : m;
      await peer.send(r() < 0.1 ? [withEnvelope, value(r, 0)] : withEnvelope);
    }
    await settle();
    assert.equal(crashes, []);
    for (const reply of peer.inbox.flat()) {
      if (reply && typeof reply === "object" && "error" in reply) {
        assert.type(reply.error.code, "number");
        assert.ok("id" in reply);
      }
    }
    peer.inbox.length = 0;
    await peer.send({ jsonrpc: "2.0", id: "alive", method: "tools/call", params: { name: "x" } });
    let last;
    do last = await peer.next();
    while (last.id !== "alive");
    assert.equal(last.result, { content: [] });
    assert.is(session.runningCount, 0);
    void latest;
  });
}

test.run();
