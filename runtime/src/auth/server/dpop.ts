/**
 * The resource server's side of DPoP (RFC 9449; the MCP DPoP extension, SEP-1932): a request that
 * presents a DPoP-bound token carries a proof, a JWT signed with the key the token is bound to
 * (`cnf.jkt`, whatever verifier read the token: JWT or introspection), made for this request
 * (`htm`, `htu`), for this token (`ath`), recently (`iat`), never seen before (`jti`, within the
 * window), and, when nonces are on, with a nonce this server issued (§9). Nonces are stateless
 * (an HMAC of their issue time), so every instance sharing the secret accepts them. Loaded by a
 * guard with the first DPoP request it sees. WebCrypto only, so the guard runs on workerd, Bun and
 * Deno as on Node.
 */
import { fromBase64Url, toBase64Url, utf8Bytes, utf8Text } from "../../bytes.js";
import type { DPoPSettings } from "./dpop-settings.js";

/** Why a proof is refused: `use_dpop_nonce` asks the client to retry with the nonce sent along. */
export interface DPoPRefusal {
  error: "invalid_dpop_proof" | "use_dpop_nonce";
  message: string;
}

class Refused extends Error {
  constructor(readonly refusal: DPoPRefusal) {
    super(refusal.message);
  }
}

type Subtle = typeof globalThis.crypto.subtle;
type CryptoKey = Awaited<ReturnType<Subtle["importKey"]>>;
type VerifyParams = Parameters<Subtle["verify"]>[0];
interface AlgSpec {
  kty: "EC" | "RSA" | "OKP";
  crv?: string;
  importParams: Parameters<Subtle["importKey"]>[2];
  verifyParams: VerifyParams;
}

const subtle = (): Subtle => globalThis.crypto.subtle;

async function sha256Url(text: string): Promise<string> {
  return toBase64Url(new Uint8Array(await subtle().digest("SHA-256", utf8Bytes(text))));
}

const ec = (crv: string, hash: string): AlgSpec => ({
  kty: "EC",
  crv,
  importParams: { name: "ECDSA", namedCurve: crv },
  verifyParams: { name: "ECDSA", hash },
});
const rsa = (hash: string): AlgSpec => ({
  kty: "RSA",
  importParams: { name: "RSASSA-PKCS1-v1_5", hash },
  verifyParams: { name: "RSASSA-PKCS1-v1_5" },
});
const pss = (hash: string, saltLength: number): AlgSpec => ({
  kty: "RSA",
  importParams: { name: "RSA-PSS", hash },
  verifyParams: { name: "RSA-PSS", saltLength },
});

/** How each algorithm of dpop-settings.ts verifies (RFC 9449 §4.2: asymmetric only, never `none` nor a MAC). */
const ALGS: Record<string, AlgSpec> = {
  ES256: ec("P-256", "SHA-256"),
  ES384: ec("P-384", "SHA-384"),
  ES512: ec("P-521", "SHA-512"),
  RS256: rsa("SHA-256"),
  RS384: rsa("SHA-384"),
  RS512: rsa("SHA-512"),
  PS256: pss("SHA-256", 32),
  PS384: pss("SHA-384", 48),
  PS512: pss("SHA-512", 64),
  EdDSA: { kty: "OKP", crv: "Ed25519", importParams: { name: "Ed25519" }, verifyParams: { name: "Ed25519" } },
};

/** A proof is one compact JWS; anything longer is not one (an RSA-4096 proof is about 1.5 KB). */
const MAX_PROOF_CHARS = 8 * 1024;
const MAX_JTI_CHARS = 256;

export interface DPoPRequest {
  method: string;
  /** The request's URL as the client addressed it (query and fragment are ignored). */
  url: URL;
  /** The access token presented with it. */
  token: string;
  /** The key the token is bound to (`cnf.jkt`). */
  jkt: string;
}

export class DPoPChecker {
  /** jti → when it leaves the window (ms); insertion order is arrival order, so the oldest are first. */
  private readonly seen = new Map<string, number>();
  private hmacKey: Promise<CryptoKey> | undefined;

  constructor(private readonly s: DPoPSettings) {}

  private key(): Promise<CryptoKey> {
    return (this.hmacKey ??= subtle().importKey("raw", this.s.secret, { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]));
  }

  /** A fresh nonce: its issue time and that time's HMAC. */
  async issueNonce(now = Date.now()): Promise<string> {
    const t = now.toString(36);
    return `${t}.${toBase64Url(new Uint8Array(await subtle().sign("HMAC", await this.key(), utf8Bytes(t))))}`;
  }

  private async nonceValid(nonce: unknown, now: number): Promise<boolean> {
    if (typeof nonce !== "string" || nonce.length > 64) return false;
    const dot = nonce.indexOf(".");
    if (dot < 1) return false;
    const t = nonce.slice(0, dot);
    let tag: Uint8Array;
    try {
      tag = fromBase64Url(nonce.slice(dot + 1));
    } catch {
      return false;
    }
    // subtle.verify compares in constant time.
    if (!(await subtle().verify("HMAC", await this.key(), tag, utf8Bytes(t)))) return false;
    const issued = parseInt(t, 36);
    return issued <= now + 1000 && now - issued <= this.s.nonceLifetime;
  }

  /** Checks `proof` for `r`: undefined when it is good, else why not. */
  async check(
    proof: string | string[] | undefined,
    r: DPoPRequest,
    now = Date.now(),
  ): Promise<DPoPRefusal | undefined> {
    try {
      await this.verify(proof, r, now);
      return undefined;
    } catch (e) {
      if (e instanceof Refused) return e.refusal;
      throw e;
    }
  }

  private async verify(proof: string | string[] | undefined, r: DPoPRequest, now: number): Promise<void> {
    const bad = (why: string): never => {
      throw new Refused({ error: "invalid_dpop_proof", message: why });
    };
    if (proof === undefined) bad("the request has no DPoP proof");
    if (typeof proof !== "string" || proof.includes(",")) bad("the request has more than one DPoP proof");
    const jws = proof as string;
    if (jws.length > MAX_PROOF_CHARS) bad("DPoP proof too long");
    const parts = jws.split(".");
    if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p))) bad("DPoP proof is not a compact JWS");
    const header = jsonPart(parts[0]!);
    const claims = jsonPart(parts[1]!);
    if (header === undefined || claims === undefined) bad("DPoP proof is not a JWT");
    const h = header!;
    const c = claims!;
    if (h.typ !== "dpop+jwt") bad('DPoP proof typ must be "dpop+jwt"');
    const alg = typeof h.alg === "string" ? h.alg : "";
    const spec = ALGS[alg];
    if (spec === undefined || !this.s.algorithms.includes(alg))
      bad(`DPoP proof alg ${JSON.stringify(alg.slice(0, 20))} is not accepted`);
    const jwk = h.jwk;
    if (jwk === null || typeof jwk !== "object" || Array.isArray(jwk)) bad("DPoP proof has no jwk");
    const key = jwk as Record<string, unknown>;
    if ("d" in key || "p" in key || "k" in key) bad("DPoP proof jwk is not a public key");
    if (key.kty !== spec!.kty || (spec!.crv !== undefined && key.crv !== spec!.crv))
      bad(`DPoP proof jwk does not fit ${alg}`);
    if ((await thumbprint(key)) !== r.jkt) bad("DPoP proof key is not the one the token is bound to");
    if (typeof c.jti !== "string" || c.jti === "" || c.jti.length > MAX_JTI_CHARS)
      bad("DPoP proof jti missing or too long");
    if (c.htm !== r.method) bad("DPoP proof htm is not the request method");
    if (typeof c.htu !== "string" || !sameTarget(c.htu, r.url)) bad("DPoP proof htu is not the request URL");
    if (typeof c.iat !== "number" || !Number.isFinite(c.iat) || Math.abs(now / 1000 - c.iat) > this.s.window)
      bad("DPoP proof iat is outside the accepted window");
    if (c.ath !== (await sha256Url(r.token))) bad("DPoP proof ath does not match the access token");
    let verified = false;
    try {
      const k = await subtle().importKey("jwk", pickPublic(key), spec!.importParams, false, ["verify"]);
      verified = await subtle().verify(
        spec!.verifyParams,
        k,
        fromBase64Url(parts[2]!),
        utf8Bytes(`${parts[0]}.${parts[1]}`),
      );
    } catch {
      verified = false;
    }
    if (!verified) bad("DPoP proof signature does not verify");
    if (this.s.nonces && !(await this.nonceValid(c.nonce, now))) {
      throw new Refused({
        error: "use_dpop_nonce",
        message: c.nonce === undefined ? "a DPoP nonce is required" : "the DPoP nonce is stale or unknown",
      });
    }
    this.remember(c.jti as string, now);
  }

  /** Refuses a jti seen within the window; remembers at most `maxJtis`, forgetting the oldest first. */
  private remember(jti: string, now: number): void {
    for (const [k, until] of this.seen) {
      if (until > now) break;
      this.seen.delete(k);
    }
    if (this.seen.has(jti))
      throw new Refused({ error: "invalid_dpop_proof", message: "DPoP proof replayed (jti already used)" });
    // At the bound the oldest proofs are forgotten: one of those could be replayed within what
    // is left of its window (RFC 9449 §11.1 accepts that trade for bounded memory).
    if (this.seen.size >= this.s.maxJtis) this.seen.delete(this.seen.keys().next().value as string);
    this.seen.set(jti, now + 2 * this.s.window * 1000);
  }
}

function jsonPart(b64: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(utf8Text(fromBase64Url(b64)));
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** RFC 7638 members per key type, in their lexicographic order. */
const THUMBPRINT_MEMBERS: Record<string, readonly string[]> = {
  EC: ["crv", "kty", "x", "y"],
  RSA: ["e", "kty", "n"],
  OKP: ["crv", "kty", "x"],
};

/** RFC 7638 JWK SHA-256 thumbprint, as `cnf.jkt` carries it (RFC 9449 §6.1); "" for a key without its members. */
async function thumbprint(jwk: Record<string, unknown>): Promise<string> {
  const members = THUMBPRINT_MEMBERS[String(jwk.kty)];
  if (members === undefined || members.some((m) => typeof jwk[m] !== "string")) return "";
  const canonical = `{${members.map((m) => `${JSON.stringify(m)}:${JSON.stringify(jwk[m])}`).join(",")}}`;
  return sha256Url(canonical);
}

function pickPublic(jwk: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of THUMBPRINT_MEMBERS[String(jwk.kty)] ?? []) out[m] = jwk[m];
  return out;
}

/** RFC 9449 §4.3 item 9: htu matches the request URI without query and fragment. */
function sameTarget(htu: string, url: URL): boolean {
  let u: URL;
  try {
    u = new URL(htu);
  } catch {
    return false;
  }
  return u.protocol === url.protocol && u.host === url.host && u.pathname === url.pathname;
}
