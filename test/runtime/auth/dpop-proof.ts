/**
 * DPoP proofs for the resource-server tests, made with node:crypto alone (independent of the
 * runtime's client): an ES256 key, its RFC 7638 thumbprint, and RFC 9449 §4.2 proofs with any
 * claim a test wants to get wrong.
 */
import { createHash, generateKeyPairSync, randomUUID, sign, type KeyObject } from "node:crypto";

export interface ProofKey {
  privateKey: KeyObject;
  jwk: { kty: string; crv: string; x: string; y: string };
  /** The thumbprint a bound token's `cnf.jkt` names. */
  jkt: string;
}

export function proofKey(): ProofKey {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const { kty, crv, x, y } = publicKey.export({ format: "jwk" }) as { kty: string; crv: string; x: string; y: string };
  const jwk = { kty, crv, x, y };
  const jkt = createHash("sha256").update(`{"crv":"${crv}","kty":"${kty}","x":"${x}","y":"${y}"}`).digest("base64url");
  return { privateKey, jwk, jkt };
}

const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString("base64url");

export interface ProofClaims {
  htm: string;
  htu: string;
  /** The access token the proof is for (its `ath`). */
  token?: string;
  nonce?: string;
  jti?: string;
  iat?: number;
  [claim: string]: unknown;
}

/** A proof signed by `key` (the header's `jwk` is `key`'s unless `headerJwk` says otherwise). */
export function proof(key: ProofKey, claims: ProofClaims, header: Record<string, unknown> = {}): string {
  const { token, ...rest } = claims;
  const payload = {
    jti: randomUUID(),
    iat: Math.floor(Date.now() / 1000),
    ...(token !== undefined ? { ath: createHash("sha256").update(token).digest("base64url") } : {}),
    ...rest,
  };
  const input = `${b64({ typ: "dpop+jwt", alg: "ES256", jwk: key.jwk, ...header })}.${b64(payload)}`;
  return `${input}.${sign("sha256", Buffer.from(input), { key: key.privateKey, dsaEncoding: "ieee-p1363" }).toString("base64url")}`;
}
