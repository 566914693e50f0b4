/**
 * A local JWT issuer for the resource-server tests: an ES256 key whose JWKS is served on
 * 127.0.0.1, and RFC 9068 access tokens signed with it carrying whatever claims (time claims
 * included) a test asks for.
 */
import { generateKeyPairSync, randomUUID, sign, type KeyObject } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface TokenClaims {
  sub: string;
  client_id: string;
  aud: string;
  scope?: string;
  /** Seconds since the epoch; default now. */
  iat?: number;
  nbf?: number;
  /** Default ten minutes from now. */
  exp?: number;
  /** RFC 9449 §6.1: the DPoP key the token is bound to. */
  cnf?: { jkt: string };
}

export interface LocalIssuer {
  issuer: string;
  jwksUri: string;
  /** An access token signed with the published key. */
  token(claims: TokenClaims): string;
  /** The same, signed with a key the JWKS does not have (a bad token). */
  forged(claims: TokenClaims): string;
  close(): Promise<void>;
}

const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString("base64url");

export const now = (): number => Math.floor(Date.now() / 1000);

export async function startIssuer(): Promise<LocalIssuer> {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const stranger = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
  const jwks = JSON.stringify({
    keys: [{ ...publicKey.export({ format: "jwk" }), kid: "k1", alg: "ES256", use: "sig" }],
  });
  const server = createServer((req, res) => {
    if (req.url === "/jwks") res.writeHead(200, { "content-type": "application/json" }).end(jwks);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signed = (key: KeyObject, claims: TokenClaims): string => {
    const t = now();
    const input = `${b64({ alg: "ES256", typ: "at+jwt", kid: "k1" })}.${b64({ iss: issuer, iat: t, exp: t + 600, jti: randomUUID(), ...claims })}`;
    return `${input}.${sign("sha256", Buffer.from(input), { key, dsaEncoding: "ieee-p1363" }).toString("base64url")}`;
  };
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    token: (claims) => signed(privateKey, claims),
    forged: (claims) => signed(stranger, claims),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
