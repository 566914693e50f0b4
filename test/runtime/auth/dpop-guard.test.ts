// The resource-server guard with DPoP (RFC 9449) over real HTTP: a bound token is admitted with a
// proof of its key for this request, and refused with another key's proof, a replayed proof, a
// proof for another method, URL or token, outside the time window, or without the server's nonce
// when nonces are on; a bound token presented as a bearer token is refused. Tokens are JWTs
// (jwtVerifier) or opaque ones whose binding comes from an introspection-style verifier. Garbage
// proofs get 401 with the DPoP challenge, never a crash.
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createResourceServer,
  InvalidTokenError,
  jwtVerifier,
  type DPoPGuardOptions,
  type TokenVerifier,
} from "@mcpgen/runtime/auth";
import { startIssuer, type LocalIssuer } from "./jwt-issuer.js";
import { proof, proofKey, type ProofKey } from "./dpop-proof.js";
import { send } from "./guarded-weather.js";

const cleanup: (() => Promise<void> | void)[] = [];
test.after.each(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

interface Setup {
  resource: string;
  issuer: LocalIssuer;
  key: ProofKey;
  /** A JWT bound to `key`. */
  jwt: string;
  /** An opaque token bound to `key` (the introspection-style verifier knows it). */
  opaque: string;
}

async function setup(dpop: DPoPGuardOptions | true = true): Promise<Setup> {
  const issuer = await startIssuer();
  cleanup.push(() => issuer.close());
  const key = proofKey();
  const box: { resource: string } = { resource: "" };
  const opaque = new Map<string, string | undefined>([
    ["opaque-bound", key.jkt],
    ["opaque-unbound", undefined],
  ]);
  const verifier: TokenVerifier = {
    async verify(token, req) {
      if (!token.includes(".")) {
        if (!opaque.has(token)) throw new InvalidTokenError("unknown token");
        const jkt = opaque.get(token);
        // What an RFC 7662 introspection response says of a (bound) token.
        return {
          scopes: [],
          subject: "bob",
          clientId: "c",
          claims: { active: true, ...(jkt !== undefined ? { cnf: { jkt } } : {}) },
        };
      }
      return jwtVerifier({ issuer: issuer.issuer, jwksUri: issuer.jwksUri, audience: box.resource }).verify(token, req);
    },
  };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (guard.serveMetadata(req, res, path)) return;
    void guard.admit(req, res, []).then((auth) => {
      if (auth !== undefined)
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ subject: auth.subject }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  box.resource = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const guard = createResourceServer({ resource: box.resource, authorizationServers: [issuer.issuer], verifier, dpop });
  const jwt = issuer.token({ sub: "alice", client_id: "c", aud: box.resource, cnf: { jkt: key.jkt } });
  return { resource: box.resource, issuer, key, jwt, opaque: "opaque-bound" };
}

const dpopCall = (s: Setup, token: string, p: string | undefined, method = "POST") =>
  send(
    s.resource,
    method,
    { authorization: `DPoP ${token}`, ...(p !== undefined ? { dpop: p } : {}), "content-type": "application/json" },
    method === "POST" ? "{}" : undefined,
  );

test("metadata lists the proof algorithms; a request without credentials is challenged with Bearer and DPoP", async () => {
  const s = await setup();
  const meta = JSON.parse(
    (await send(new URL("/.well-known/oauth-protected-resource/mcp", s.resource), "GET")).body,
  ) as Record<string, unknown>;
  assert.ok((meta.dpop_signing_alg_values_supported as string[]).includes("ES256"));
  assert.is(meta.dpop_bound_access_tokens_required, false);
  const bare = await send(s.resource, "POST", { "content-type": "application/json" }, "{}");
  assert.is(bare.status, 401);
  assert.match(
    String(bare.headers["www-authenticate"]),
    /^Bearer resource_metadata="[^"]+", DPoP algs="ES256 [^"]*", resource_metadata=/,
  );
});

test("a bound token with a proof of its key is admitted, JWT or opaque; the same proof again is a replay", async () => {
  const s = await setup();
  for (const token of [s.jwt, s.opaque]) {
    const p = proof(s.key, { htm: "POST", htu: s.resource, token });
    const ok = await dpopCall(s, token, p);
    assert.is(ok.status, 200, ok.body);
    const again = await dpopCall(s, token, p);
    assert.is(again.status, 401);
    assert.match(
      String(again.headers["www-authenticate"]),
      /DPoP error="invalid_dpop_proof", error_description="DPoP proof replayed/,
    );
  }
  // htu ignores the query (RFC 9449 §4.3), and every method is bound to its own proof.
  assert.is(
    (
      await send(`${s.resource}?x=1`, "GET", {
        authorization: `DPoP ${s.opaque}`,
        dpop: proof(s.key, { htm: "GET", htu: s.resource, token: s.opaque }),
      })
    ).status,
    200,
  );
});

test("refused: another key, another method, URL or token, a stale iat, no proof, two proofs, a bound token as bearer, an unbound token as DPoP", async () => {
  const s = await setup();
  const other = proofKey();
  const cases: [string, string | undefined, RegExp][] = [
    [
      "another key",
      proof(other, { htm: "POST", htu: s.resource, token: s.opaque }),
      /key is not the one the token is bound to/,
    ],
    ["another method", proof(s.key, { htm: "GET", htu: s.resource, token: s.opaque }), /htm/],
    ["another URL", proof(s.key, { htm: "POST", htu: `${s.resource}/other`, token: s.opaque }), /htu/],
    ["another token", proof(s.key, { htm: "POST", htu: s.resource, token: "something-else" }), /ath/],
    [
      "stale",
      proof(s.key, { htm: "POST", htu: s.resource, token: s.opaque, iat: Math.floor(Date.now() / 1000) - 3600 }),
      /iat/,
    ],
    ["no proof", undefined, /no DPoP proof/],
    [
      "a private key in the header",
      proof(s.key, { htm: "POST", htu: s.resource, token: s.opaque }, { jwk: { ...s.key.jwk, d: "AAAA" } }),
      /not a public key/,
    ],
    ["alg none", proof(s.key, { htm: "POST", htu: s.resource, token: s.opaque }, { alg: "none" }), /alg/],
  ];
  for (const [what, p, why] of cases) {
    const r = await dpopCall(s, s.opaque, p);
    assert.is(r.status, 401, what);
    const www = String(r.headers["www-authenticate"]);
    assert.match(www, /DPoP error="invalid_dpop_proof"/, what);
    assert.match(www, why, what);
  }
  const two = await send(
    s.resource,
    "POST",
    {
      authorization: `DPoP ${s.opaque}`,
      dpop: [
        proof(s.key, { htm: "POST", htu: s.resource, token: s.opaque }),
        proof(s.key, { htm: "POST", htu: s.resource, token: s.opaque }),
      ].join(", "),
    },
    "{}",
  );
  assert.is(two.status, 401);
  // The JWT verifier (oauth4webapi) checks the proof of a bound JWT too: another key is refused there.
  const jwtOther = await dpopCall(s, s.jwt, proof(other, { htm: "POST", htu: s.resource, token: s.jwt }));
  assert.is(jwtOther.status, 401);
  assert.match(String(jwtOther.headers["www-authenticate"]), /DPoP error="invalid_token"/);
  const asBearer = await send(s.resource, "POST", { authorization: `Bearer ${s.opaque}` }, "{}");
  assert.is(asBearer.status, 401);
  assert.match(String(asBearer.headers["www-authenticate"]), /must be presented with the DPoP scheme/);
  const r = await dpopCall(
    s,
    "opaque-unbound",
    proof(s.key, { htm: "POST", htu: s.resource, token: "opaque-unbound" }),
  );
  assert.is(r.status, 401);
  assert.match(String(r.headers["www-authenticate"]), /not DPoP-bound/);
  const unbound = s.issuer.token({ sub: "alice", client_id: "c", aud: s.resource });
  assert.is(
    (await dpopCall(s, unbound, proof(s.key, { htm: "POST", htu: s.resource, token: unbound }))).status,
    401,
    "an unbound JWT as DPoP",
  );
});

test("nonces: a proof without one gets use_dpop_nonce and a DPoP-Nonce; with it, admitted (and a fresh one comes back); a forged one is refused", async () => {
  const s = await setup({ nonce: true });
  const first = await dpopCall(s, s.opaque, proof(s.key, { htm: "POST", htu: s.resource, token: s.opaque }));
  assert.is(first.status, 401);
  assert.match(String(first.headers["www-authenticate"]), /DPoP error="use_dpop_nonce"/);
  const nonce = first.headers["dpop-nonce"] as string;
  assert.type(nonce, "string");
  const ok = await dpopCall(s, s.opaque, proof(s.key, { htm: "POST", htu: s.resource, token: s.opaque, nonce }));
  assert.is(ok.status, 200, ok.body);
  assert.type(ok.headers["dpop-nonce"], "string");
  const forged = await dpopCall(
    s,
    s.opaque,
    proof(s.key, { htm: "POST", htu: s.resource, token: s.opaque, nonce: `${nonce.split(".")[0]}.AAAA` }),
  );
  assert.is(forged.status, 401);
  assert.match(String(forged.headers["www-authenticate"]), /use_dpop_nonce/);
});

test("required: bearer tokens are refused with the DPoP challenge alone", async () => {
  const s = await setup({ required: true });
  const r = await send(
    s.resource,
    "POST",
    { authorization: `Bearer ${s.issuer.token({ sub: "a", client_id: "c", aud: s.resource })}` },
    "{}",
  );
  assert.is(r.status, 401);
  assert.match(String(r.headers["www-authenticate"]), /^DPoP error="invalid_token"/);
});

test("bad DPoP options are refused when the guard is made", () => {
  const base = {
    resource: "http://127.0.0.1:1/mcp",
    authorizationServers: ["http://127.0.0.1:2"],
    verifier: { verify: () => Promise.reject(new Error("unused")) },
  };
  assert.throws(
    () => createResourceServer({ ...base, dpop: { algorithms: ["HS256"] } }),
    /not an asymmetric JWS algorithm/,
  );
  assert.throws(() => createResourceServer({ ...base, dpop: { proofWindowSeconds: 3600 } }), /proofWindowSeconds/);
  assert.throws(() => createResourceServer({ ...base, dpop: { maxRememberedProofs: 0 } }), /maxRememberedProofs/);
});

test("the replay cache is bounded: at maxRememberedProofs the oldest proof is forgotten first", async () => {
  const s = await setup({ maxRememberedProofs: 2 });
  const proofs = [0, 1, 2].map(() => proof(s.key, { htm: "POST", htu: s.resource, token: s.opaque }));
  for (const p of proofs) assert.is((await dpopCall(s, s.opaque, p)).status, 200);
  assert.is((await dpopCall(s, s.opaque, proofs[2])).status, 401, "the newest is remembered");
  assert.is((await dpopCall(s, s.opaque, proofs[0])).status, 200, "the oldest was forgotten");
});

test("property: garbage in the DPoP header (or the DPoP token) gets 401 or 400 with a challenge, and the server keeps serving", async () => {
  const s = await setup();
  const part = fc.oneof(
    fc.base64String({ maxLength: 40 }).map((x) => x.replace(/=/g, "")),
    fc.json({ maxDepth: 2 }).map((j) => Buffer.from(j).toString("base64url")),
    fc.constant(""),
  );
  const header = fc.oneof(
    fc.string({ maxLength: 200 }).filter((x) => /^[\x21-\x7e][\x20-\x7e]*$/.test(x) && !x.endsWith(" ")),
    fc.tuple(part, part, part).map((p) => p.join(".")),
    fc
      .record({
        typ: fc.constantFrom("dpop+jwt", "JWT"),
        alg: fc.constantFrom("ES256", "RS256", "none", "HS256"),
        jwk: fc.oneof(fc.constant(s.key.jwk), fc.object({ maxDepth: 1 })),
      })
      .map(
        (h) => `${Buffer.from(JSON.stringify(h)).toString("base64url")}.${Buffer.from("{}").toString("base64url")}.sig`,
      ),
  );
  await fc.assert(
    fc.asyncProperty(header, async (garbage) => {
      const r = await dpopCall(s, s.opaque, garbage);
      assert.is(r.status, 401);
      assert.match(String(r.headers["www-authenticate"]), /DPoP error="invalid_dpop_proof"/);
    }),
    { numRuns: 150 },
  );
  await fc.assert(
    fc.asyncProperty(
      fc.string({ minLength: 1, maxLength: 100 }).filter((x) => /^[\x21-\x7e]+$/.test(x)),
      async (token) => {
        const r = await send(s.resource, "POST", { authorization: `DPoP ${token}`, dpop: "x" }, "{}");
        assert.ok(r.status === 400 || r.status === 401, String(r.status));
        assert.match(String(r.headers["www-authenticate"]), /DPoP /);
      },
    ),
    { numRuns: 100 },
  );
  assert.is((await dpopCall(s, s.opaque, proof(s.key, { htm: "POST", htu: s.resource, token: s.opaque }))).status, 200);
});

test.run();
