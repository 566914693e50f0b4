// subscriptions/listen carrying 2026-07-28 `_meta` POSTed into a live legacy Streamable HTTP
// session (Mcp-Session-Id): the listen ends with its HTTP stream, as on the stateless path, and
// releases what it held; a cancelled listen stops keeping the session busy; the session's share.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createStreamableHttpServer, type StreamableHttpServer } from "@mcpgen/runtime/http";
import type { McpServer, McpServerOptions } from "@mcpgen/runtime";
import { raw, waitFor } from "../transports/helpers.js";
import { server } from "./fixture.js";
import { acknowledged, fullGc, legacySession, openListen, refusal } from "./listen-http.js";

const stops: (() => Promise<void>)[] = [];
test.after.each(async () => {
  for (const f of stops.splice(0).reverse()) await f();
});

async function start(
  options: Partial<McpServerOptions> = {},
  idleMs = 0,
): Promise<{ s: McpServer; http: StreamableHttpServer; url: URL }> {
  const s = server(options);
  const http = createStreamableHttpServer({
    onsession: (t) => s.connect(t).then(() => {}),
    keepAliveMs: 0,
    sessionIdleTimeoutMs: idleMs,
    onerror: () => {},
  });
  stops.push(
    () => s.close(),
    () => http.close(),
  );
  return { s, http, url: await http.listen() };
}

test("listens in a legacy session end when their connections drop: gone from the hub, their memory released, the session idles out", async () => {
  const { s, http, url } = await start({}, 400);
  const h = await legacySession(url);
  const [session] = http.sessions.values();
  fullGc();
  const base = process.memoryUsage().heapUsed;
  // Each listen holds 4 x 60 000 characters of URIs and 1 MiB of _meta while it is open.
  const uris = (i: number) => Array.from({ length: 4 }, (_, k) => `u://${i}/${k}/${"x".repeat(60_000)}`);
  const streams = [];
  for (let i = 0; i < 10; i++)
    streams.push(
      await openListen(
        url,
        h,
        100 + i,
        { toolsListChanged: true, resourceSubscriptions: uris(i) },
        { junk: "y".repeat(1 << 20) },
      ),
    );
  assert.ok(streams.every(acknowledged));
  assert.is(s.listens.size, 10);
  fullGc();
  const held = process.memoryUsage().heapUsed - base;
  assert.ok(held > 10 * (1 << 20), `ten open listens hold their filters and requests (${held} bytes)`);
  assert.ok(session!.busy);

  for (const st of streams) st.close();
  // This side's streams (they hold what was sent and received) go too, before anything is measured.
  streams.length = 0;
  await waitFor(() => s.listens.size === 0, 2000, "the dropped listens to end");
  assert.not.ok(session!.busy, "a listen whose client is gone keeps nothing busy");
  fullGc();
  const left = process.memoryUsage().heapUsed - base;
  assert.ok(left < held / 4, `what the listens held is released (${left} of ${held} bytes left)`);
  // Nothing but the dead listens was going on: the session idles out.
  await waitFor(() => http.sessions.size === 0, 3000, "the idle session to close");
});

test("a listen cancelled with notifications/cancelled in a legacy session ends its stream; the session is not kept busy", async () => {
  const { s, http, url } = await start();
  const h = await legacySession(url);
  const [session] = http.sessions.values();
  const st = await openListen(url, h, 7);
  assert.ok(acknowledged(st));
  const cancel = await raw(url, {
    method: "POST",
    headers: h,
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } }),
  });
  assert.is(cancel.status, 202);
  await waitFor(() => st.ended, 2000, "the cancelled listen's stream to end");
  assert.is(s.listens.size, 0);
  assert.not.ok(session!.busy);
  assert.not.ok(
    st.messages().some((m) => "id" in m),
    "a cancelled request gets no response",
  );
  st.close();
});

test("a session's listens are capped (listens.perSession, -32000); dropping one frees its slot; other sessions still listen", async () => {
  const { s, url } = await start({ listens: { perSession: 3 } });
  const a = await legacySession(url);
  const b = await legacySession(url);
  const open = [];
  for (let i = 0; i < 3; i++) open.push(await openListen(url, a, 10 + i));
  assert.ok(open.every(acknowledged));
  const refused = await openListen(url, a, 20);
  assert.equal(refusal(refused), {
    code: -32000,
    message: "Too many listens: this session already holds 3 open listens",
    data: { limit: "listens.perSession", max: 3 },
  });
  assert.is(JSON.parse(refused.text).id, 20);
  const other = await openListen(url, b, 10);
  assert.ok(acknowledged(other), "another session's listen opens");
  open.shift()!.close();
  await waitFor(() => s.listens.size === 3, 2000, "the dropped listen to end");
  const again = await openListen(url, a, 21);
  assert.ok(acknowledged(again), "the dropped listen's slot is free again");
  for (const st of [...open, other, again]) st.close();
  await waitFor(() => s.listens.size === 0, 2000, "every listen to end");
});

test.run();
