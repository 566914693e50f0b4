// jwtVerifier's time claims over real HTTP, against a local JWT issuer: `iat` and `nbf` in the
// future and `exp` in the past are refused beyond a bounded clock tolerance, accepted within it.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { jwtVerifier } from "@mcpgen/runtime/auth";
import { now, startIssuer, type TokenClaims } from "./jwt-issuer.js";
import { startGuarded, send, bearer, rpc, JSON_POST, INITIALIZE, type GuardedOptions } from "./guarded-weather.js";

const cleanup: (() => Promise<void> | void)[] = [];
test.after.each(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** A guarded server and a way to ask it whether a token with these time claims gets in: the HTTP answer. */
async function setup(o: GuardedOptions = {}) {
  const iss = await startIssuer();
  cleanup.push(() => iss.close());
  const g = await startGuarded(iss, o);
  cleanup.push(() => g.close());
  return async (claims: Partial<TokenClaims>) => {
    const token = iss.token({ sub: "alice", client_id: "c1", aud: g.resource, scope: "weather:read", ...claims });
    const res = await send(
      new URL("/mcp", g.origin),
      "POST",
      { ...JSON_POST, ...bearer(token) },
      rpc(1, "initialize", INITIALIZE),
    );
    return { status: res.status, challenge: String(res.headers["www-authenticate"] ?? "") };
  };
}

test("iat an hour in the future: 401 invalid_token; a few seconds of clock skew are tolerated", async () => {
  const attempt = await setup();
  const future = await attempt({ iat: now() + 3600, exp: now() + 7200 });
  assert.is(future.status, 401);
  assert.match(future.challenge, /error="invalid_token", error_description="token issued in the future"/);
  assert.is((await attempt({ iat: now() + 30 })).status, 200, "30 s ahead is within the default 60 s");
  assert.is((await attempt({ iat: now() + 120 })).status, 401, "two minutes ahead is not");
});

test("nbf in the future is refused beyond the tolerance; exp just past is accepted within it, refused beyond", async () => {
  const attempt = await setup();
  const early = await attempt({ nbf: now() + 3600 });
  assert.is(early.status, 401);
  assert.match(early.challenge, /error="invalid_token", error_description="token is not valid yet"/);
  assert.is((await attempt({ nbf: now() + 30 })).status, 200);
  assert.is((await attempt({ iat: now() - 600, exp: now() - 45 })).status, 200, "expired 45 s ago, within 60 s");
  const late = await attempt({ iat: now() - 600, exp: now() - 120 });
  assert.is(late.status, 401);
  assert.match(late.challenge, /error_description="token expired"/);
});

test("clockToleranceSeconds: 0 tolerates nothing; values beyond the bound are refused when the verifier is made", async () => {
  const attempt = await setup({ verifier: { clockToleranceSeconds: 0 } });
  assert.is((await attempt({ iat: now() + 30 })).status, 401);
  assert.is((await attempt({ exp: now() - 2 })).status, 401);
  assert.is((await attempt({})).status, 200);
  const base = { issuer: "http://127.0.0.1:1", jwksUri: "http://127.0.0.1:1/jwks", audience: "http://127.0.0.1:2/mcp" };
  for (const bad of [-1, 301, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.throws(() => jwtVerifier({ ...base, clockToleranceSeconds: bad }), /clockToleranceSeconds/, String(bad));
  }
  jwtVerifier({ ...base, clockToleranceSeconds: 300 });
});

test.run();
