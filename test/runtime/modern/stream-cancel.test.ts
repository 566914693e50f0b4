// A 2026-07-28 request POSTed into a live legacy Streamable HTTP session (Mcp-Session-Id) ends when
// its client closes the stream carrying the reply, as every 2026-07-28 request does
// (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports): its handler's signal
// aborts at once, and its running slot and byte charge are freed. A 2025-11-25 request of the same
// session keeps running after its client drops: a disconnect is no cancellation in that revision.
import type { IncomingMessage } from "node:http";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createStreamableHttpServer } from "@mcpgen/runtime/http";
import { createMcpServer, type HandlerContext } from "@mcpgen/runtime";
import { createResourceServer, InvalidTokenError, type ResourceServerGuard } from "@mcpgen/runtime/auth";
import { OpenStream, raw, waitFor } from "../transports/helpers.js";
import { bindings, modern } from "../helpers/binding.js";
import { META, definition, handlers } from "./fixture.js";
import { legacySession } from "./listen-http.js";

const stops: (() => Promise<void>)[] = [];
test.after.each(async () => {
  for (const f of stops.splice(0).reverse()) await f();
});

/**
 * The fixture's server, whose `log` tool runs until its call is aborted or the test releases it;
 * given a guard, behind it.
 */
async function start(auth?: ResourceServerGuard) {
  const started: string[] = [];
  const aborted = new Map<string, number>();
  const release = new Map<string, () => void>();
  const h = handlers();
  const slow = (_: never, ctx: HandlerContext) =>
    new Promise<string>((resolve, reject) => {
      const key = String(ctx.requestId);
      started.push(key);
      release.set(key, () => resolve(`released ${key}`));
      ctx.signal.addEventListener(
        "abort",
        () => {
          aborted.set(key, Date.now());
          reject(ctx.signal.reason);
        },
        { once: true },
      );
    });
  const s = createMcpServer(
    definition(),
    { ...h, tools: { ...h.tools, log: slow } },
    { bindings: [modern, ...bindings], onerror: () => {} },
  );
  const http = createStreamableHttpServer({
    onsession: (t) => s.connect(t).then(() => {}),
    keepAliveMs: 0,
    onerror: () => {},
    ...(auth ? { auth } : {}),
  });
  stops.push(async () => {
    for (const r of release.values()) r();
    await s.close();
    await http.close();
  });
  return { s, url: await http.listen(), started, aborted, release };
}

const call = (id: number, meta?: object) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: meta === undefined ? { name: "log", arguments: {} } : { name: "log", arguments: {}, _meta: meta },
  });

test("a slow 2026-07-28 tools/call in a legacy session is cancelled when its client drops the connection; a 2025-11-25 one keeps running", async () => {
  const { s, url, started, aborted, release } = await start();
  const h = await legacySession(url);
  const [session] = s.sessions;

  // The legacy call's client goes away first; it is not cancelled by that.
  const legacy = await OpenStream.open(url, { method: "POST", headers: h, body: call(5), waitHeaders: false });
  await waitFor(() => started.includes("5"), 2000, "the legacy call to start");
  legacy.close();

  const stream = await OpenStream.open(url, { method: "POST", headers: h, body: call(6, META), waitHeaders: false });
  await waitFor(() => started.includes("6"), 2000, "the 2026-07-28 call to start");
  const dropped = Date.now();
  stream.close();
  await waitFor(() => aborted.has("6"), 2000, "the 2026-07-28 call's handler to see its signal abort");
  assert.ok(aborted.get("6")! - dropped < 1000, `aborted ${aborted.get("6")! - dropped} ms after the drop`);
  const [modernSession] = s.modernSessions;
  await waitFor(() => modernSession!.runningCount === 0, 1000, "the 2026-07-28 session to have nothing running");

  assert.not.ok(aborted.has("5"), "the 2025-11-25 call was not cancelled by its client's disconnect");
  assert.is(session!.runningCount, 1);
  assert.ok(s.runningBytes.used > 0, "the running legacy call is still charged");
  release.get("5")!();
  await waitFor(() => session!.runningCount === 0, 1000, "the legacy call to finish");
  assert.is(s.runningBytes.used, 0, "both calls' bytes are released");

  // The session goes on serving both eras.
  const ping = await raw(url, {
    method: "POST",
    headers: h,
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" }),
  });
  assert.equal(JSON.parse(ping.body), { jsonrpc: "2.0", id: 7, result: {} });
  const list = await raw(url, {
    method: "POST",
    headers: h,
    body: JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/list", params: { _meta: META } }),
  });
  assert.ok(JSON.parse(list.body).result.tools.length > 0, list.body);
});

test("a 2026-07-28 request whose client went away while its token was verified does not run in the legacy session", async () => {
  let verifying = false;
  let verified = false;
  // Two tokens of one principal; "slow" is verified only once its client has gone.
  const auth = createResourceServer({
    resource: "https://mcp.test/mcp",
    authorizationServers: ["https://as.test"],
    verifier: {
      verify: async (token, req) => {
        if (token !== "fast" && token !== "slow") throw new InvalidTokenError("unknown token");
        if (token === "slow") {
          verifying = true;
          // On node:http the verifier is handed node's request (any host hands its request head).
          const { socket } = req as IncomingMessage;
          await new Promise((resolve) => (socket.destroyed ? resolve(undefined) : socket.once("close", resolve)));
          verified = true;
        }
        return { clientId: "app", subject: "alice", scopes: [] };
      },
    },
  });
  const { s, url, started } = await start(auth);
  const h = await legacySession(url, "Bearer fast");
  // The session's 2026-07-28 side is there before the request under test arrives.
  const list = await raw(url, {
    method: "POST",
    headers: h,
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: META } }),
  });
  assert.is(list.status, 200);
  const gone = await OpenStream.open(url, {
    method: "POST",
    headers: { ...h, authorization: "Bearer slow" },
    body: call(9, META),
    waitHeaders: false,
  });
  await waitFor(() => verifying, 2000, "the slow token's verification to start");
  gone.close();
  await waitFor(() => verified, 2000, "the verification to end after the client left");
  // A later request of the session is answered after the gone one was dispatched.
  const ping = await raw(url, {
    method: "POST",
    headers: h,
    body: JSON.stringify({ jsonrpc: "2.0", id: 10, method: "ping" }),
  });
  assert.equal(JSON.parse(ping.body), { jsonrpc: "2.0", id: 10, result: {} });
  assert.not.ok(started.includes("9"), "the request of a client that went away never ran");
  const [modernSession] = s.modernSessions;
  assert.is(modernSession!.runningCount, 0);
  assert.is(s.runningBytes.used, 0);
});

test.run();
