// A takeover keeps the session bound to its principal: two guarded instances of the weather server
// share one Redis; the instance holding alice's session stops (its heartbeat gone, its record left
// behind, as after a SIGKILL); mallory's valid token on that session id gets 404 like an unknown id
// and claims nothing; alice's next request is served by the other instance in the same session.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createStreamableHttpHandler, type StreamableHttpHandler } from "@mcpgen/runtime/http";
import { createResourceServer, jwtVerifier } from "@mcpgen/runtime/auth";
import { RedisConnection, RedisSessionDirectory } from "@mcpgen/runtime/redis";
import { handlers } from "../../examples/weather/src/handlers.js";
import { createWeatherExampleServer } from "../../examples/weather/src/mcp/server.js";
import { definition } from "../../examples/weather/src/mcp/definition.js";
import { startIssuer, type LocalIssuer } from "../runtime/auth/jwt-issuer.js";
import { send, bearer, rpc, JSON_POST, INITIALIZE } from "../runtime/auth/guarded-weather.js";
import { startRedis, type RedisServer } from "./harness.js";

/** Both instances serve this resource (the balancer's address, in a deployment). */
const RESOURCE = "http://mcp.example/mcp";

interface Instance {
  url: URL;
  directory: RedisSessionDirectory;
  handler: StreamableHttpHandler;
  server: Server;
  link: RedisConnection;
}

const cleanup: (() => Promise<unknown> | void)[] = [];
let redis!: RedisServer;
let issuer!: LocalIssuer;

test.before(async () => {
  redis = await startRedis();
  issuer = await startIssuer();
});
test.after(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
  await issuer?.close();
  await redis?.close();
});

async function instance(): Promise<Instance> {
  const link = await RedisConnection.open({ url: redis.url, prefix: "principal" });
  const directory = new RedisSessionDirectory(link);
  const weather = createWeatherExampleServer(handlers);
  const auth = createResourceServer({
    resource: RESOURCE,
    authorizationServers: [issuer.issuer],
    verifier: jwtVerifier({ issuer: issuer.issuer, jwksUri: issuer.jwksUri, audience: RESOURCE }),
    requiredScopes: ["weather:read"],
    toolScopes: definition.toolScopes,
  });
  const handler = createStreamableHttpHandler({
    onsession: async (t) => void (await weather.connect(t)),
    keepAliveMs: 0,
    auth,
    sessionDirectory: directory,
  });
  const server = createServer((req, res) => handler.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  await directory.announce(url);
  const stop = async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await directory.close();
    await link.close();
  };
  cleanup.push(stop);
  return { url, directory, handler, server, link };
}

test("a session whose instance stopped: another principal's token gets 404 and claims nothing; its owner goes on in it elsewhere", async () => {
  const [a, b] = [await instance(), await instance()];
  const token = (sub: string) => issuer.token({ sub, client_id: "c1", aud: RESOURCE, scope: "weather:read" });
  const init = await send(a.url, "POST", { ...JSON_POST, ...bearer(token("alice")) }, rpc(1, "initialize", INITIALIZE));
  assert.is(init.status, 200);
  const sid = String(init.headers["mcp-session-id"]);
  const inSession = (t: string) => ({
    ...JSON_POST,
    ...bearer(t),
    "mcp-session-id": sid,
    "mcp-protocol-version": "2025-11-25",
  });
  assert.is(
    (
      await send(
        a.url,
        "POST",
        inSession(token("alice")),
        JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      )
    ).status,
    202,
  );

  // Instance a stops as a SIGKILL would leave it: no heartbeat, its sessions' entries and records in Redis.
  a.server.closeAllConnections();
  await new Promise((r) => a.server.close(r));
  await a.directory.close();

  const unknown = await send(
    b.url,
    "POST",
    { ...inSession(token("alice")), "mcp-session-id": "no-such-session" },
    rpc(2, "ping"),
  );
  const mallory = await send(b.url, "POST", inSession(token("mallory")), rpc(3, "ping"));
  assert.is(mallory.status, 404);
  assert.is(mallory.body, unknown.body, "the same answer as an unknown id");
  assert.is(await b.link.command(["GET", b.link.key("sess", sid)]), a.directory.instanceId, "mallory claimed nothing");

  // The reply may stream (SSE): read it whole.
  const alice = await fetch(b.url, {
    method: "POST",
    headers: inSession(token("alice")),
    body: rpc(4, "tools/call", { name: "get_forecast", arguments: { location: { city: "Paris" }, days: 1 } }),
    signal: AbortSignal.timeout(5000),
  });
  const body = await alice.text();
  assert.is(alice.status, 200, body);
  assert.match(body, /"result"/, body);
  assert.is(
    await b.link.command(["GET", b.link.key("sess", sid)]),
    b.directory.instanceId,
    "taken over by its owner's request",
  );
  assert.ok(b.handler.sessions.has(sid));
});

test.run();
