// Authorization outside the era probe: the dual-era client's server/discover probe is bounded
// for its exchange with the server only. A user who takes longer at the login page than the
// probe's timeout (here 1.5 s against 300 ms: the same property as a 15 s login against the
// default 10 s) neither makes a 2026-only server look legacy (the client would then send it an
// `initialize` it cannot answer) nor breaks the legacy fallback.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { connectMcpClient, createMcpServer, type McpClient } from "@mcpgen/runtime";
import { connectHttp, createStreamableHttpServer } from "@mcpgen/runtime/http";
import { createResourceServer, OAuthClient, type AuthorizationUserAgent } from "@mcpgen/runtime/auth";
import { startAs, fakeVerifier } from "./fake-as.js";
import { bindings, dual, modern } from "../helpers/binding.js";
import { definition, handlers } from "../modern/fixture.js";

const PROBE_MS = 300;
const LOGIN_MS = 1500;

const cleanup: (() => Promise<void> | void)[] = [];
test.after.each(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** A user agent that follows the authorization endpoint's redirect (the fake AS approves at once, after its delay). */
const userAgent: AuthorizationUserAgent = {
  redirectUri: "http://127.0.0.1:1/callback",
  async authorize(url, signal) {
    const res = await fetch(url, { redirect: "manual", signal });
    await res.body?.cancel();
    return new URL(res.headers.get("location")!, url);
  },
};

async function setup(revisions: string[]) {
  const as = await startAs({ authorizeDelayMs: LOGIN_MS });
  cleanup.push(() => as.close());
  const mcp = createMcpServer(definition(revisions), handlers(), {
    bindings: [modern, ...bindings],
    onerror: () => {},
  });
  const box: { resource: string } = { resource: "" };
  const guard = {
    get current() {
      return createResourceServer({
        resource: box.resource,
        authorizationServers: [as.url],
        verifier: fakeVerifier(box.resource, () => [as.url]),
      });
    },
  };
  const http = createStreamableHttpServer({
    keepAliveMs: 0,
    onsession: (t) => mcp.connect(t).then(() => {}),
    auth: {
      get metadataPath() {
        return guard.current.metadataPath;
      },
      get metadataUrl() {
        return guard.current.metadataUrl;
      },
      serveMetadata: (req, res, path) => guard.current.serveMetadata(req, res, path),
      admit: (req, res, messages) => guard.current.admit(req, res, messages),
    },
  });
  const url = await http.listen();
  box.resource = url.href;
  cleanup.push(() => http.close());
  return { as, url };
}

async function connect(url: URL, hideAuthorization = false): Promise<McpClient> {
  const transport = connectHttp(url, { auth: new OAuthClient({ server: url, userAgent }) });
  // The control: a transport that does not report its authorizations, as before this change.
  if (hideAuthorization) Object.defineProperty(transport, "watchAuthorization", { value: undefined });
  const client = await connectMcpClient(transport, {
    bindings: dual,
    clientInfo: { name: "slow-login", version: "1" },
    probeTimeout: PROBE_MS,
    timeout: 5000,
    eraCache: false,
    onerror: () => {},
  });
  cleanup.push(() => client.close());
  return client;
}

test("2026-only server: a login longer than the probe's timeout, and the client stays in the 2026-07-28 era", async () => {
  const { as, url } = await setup(["2026-07-28"]);
  const started = Date.now();
  const client = await connect(url);
  assert.ok(Date.now() - started >= LOGIN_MS, "the login took its time");
  assert.is(client.era, "modern");
  assert.equal((await client.listTools()).map((t) => t.name).slice(0, 1), ["echo"]);
  assert.is(as.log.filter((e) => e.path === "/authorize").length, 1, "one login");
});

test("legacy-only server: the same slow login, then the fallback to initialize", async () => {
  const { as, url } = await setup(["2025-11-25"]);
  const client = await connect(url);
  assert.is(client.era, "legacy");
  assert.is(client.protocolVersion, "2025-11-25");
  assert.equal((await client.listTools()).map((t) => t.name).slice(0, 1), ["echo"]);
  assert.is(as.log.filter((e) => e.path === "/authorize").length, 1, "one login");
});

test("control: with the login counted against the probe, the 2026-only server is taken for a legacy one and the connection fails", async () => {
  const { url } = await setup(["2026-07-28"]);
  try {
    await connect(url, true);
    assert.unreachable("connected although the probe timed out during the login");
  } catch (e) {
    assert.instance(e, Error);
    assert.not.instance(e, assert.Assertion);
    // The fallback's initialize, which a 2026-only server refuses (ours by version, others with HTTP 404).
    assert.match((e as Error).message, /Unsupported protocol version: 2025-11-25|HTTP 404/);
  }
});

test.run();
