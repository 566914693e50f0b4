/**
 * The client's DPoP key (RFC 9449; the MCP DPoP extension, SEP-1932): one key pair per
 * OAuthClient, proofs for its token requests (oauth4webapi's DPoP handle, which also keeps the
 * authorization server's nonces) and for its requests to the MCP server (the same handle through
 * oauth4webapi's protected-resource request, whose headers the HTTP transport then sends). Loaded
 * only by clients configured for DPoP.
 */
import * as oauth from "oauth4webapi";
import type { CryptoKeyPair } from "oauth4webapi";
import { OAuthFlowError } from "./errors.js";

export interface DPoPOptions {
  /**
   * JWS algorithm of the proofs (default: the first of ES256, ES384, ES512, EdDSA, PS256, RS256
   * the authorization server lists in `dpop_signing_alg_values_supported`, else ES256).
   */
  algorithm?: string;
  /** The key pair to prove possession of (default: one generated per OAuthClient, kept in memory). */
  keyPair?: CryptoKeyPair;
}

const PREFERRED = ["ES256", "ES384", "ES512", "EdDSA", "PS256", "RS256"];

/** The algorithm to sign proofs with for an authorization server that lists `offered` (undefined: not listed). */
function pickDPoPAlgorithm(wanted: string | undefined, offered: readonly string[] | undefined): string {
  if (wanted !== undefined) {
    if (offered !== undefined && !offered.includes(wanted)) {
      throw new OAuthFlowError(
        "unsupported",
        `DPoP algorithm ${wanted} is not among the authorization server's ${JSON.stringify(offered.slice(0, 16))}`,
      );
    }
    return wanted;
  }
  if (offered === undefined) return "ES256";
  const alg = PREFERRED.find((a) => offered.includes(a));
  if (alg === undefined)
    throw new OAuthFlowError(
      "unsupported",
      `no DPoP algorithm in common with the authorization server (it offers ${JSON.stringify(offered.slice(0, 16))})`,
    );
  return alg;
}

export class DPoPKey {
  /** oauth4webapi's handle: token requests take it as their `DPoP` option. */
  readonly handle: oauth.DPoPHandle;
  /** The resource server's latest nonce, per origin (a client talks to one MCP server: a handful at most). */
  private readonly resourceNonces = new Map<string, string>();

  private constructor(keyPair: CryptoKeyPair) {
    // Resource proofs are the ones that carry `ath`; their nonce is the resource server's (the
    // handle keeps the authorization server's itself, per origin, from token responses).
    const modify = (_header: Record<string, unknown>, payload: Record<string, unknown>): void => {
      if (payload.ath === undefined || typeof payload.htu !== "string") return;
      const nonce = this.resourceNonces.get(new URL(payload.htu).origin);
      if (nonce !== undefined) payload.nonce = nonce;
    };
    this.handle = oauth.DPoP({}, keyPair, {
      [oauth.modifyAssertion]: modify,
    });
  }

  static async create(o: DPoPOptions, offered: readonly string[] | undefined): Promise<DPoPKey> {
    if (o.keyPair !== undefined) return new DPoPKey(o.keyPair);
    const alg = pickDPoPAlgorithm(o.algorithm, offered);
    let pair: CryptoKeyPair;
    try {
      pair = await oauth.generateKeyPair(alg);
    } catch (e) {
      throw new OAuthFlowError("unsupported", `cannot generate a DPoP key for ${alg}: ${(e as Error).message}`);
    }
    return new DPoPKey(pair);
  }

  /** The JWK SHA-256 thumbprint a bound token's `cnf.jkt` names. */
  thumbprint(): Promise<string> {
    return this.handle.calculateThumbprint();
  }

  /** `Authorization: DPoP <token>` and a fresh proof for `method` `url` (RFC 9449 §4.2, §7.1). */
  async resourceHeaders(token: string, method: string, url: URL): Promise<Record<string, string>> {
    let sent: Record<string, string> | undefined;
    // oauth4webapi builds the request (proof with htm, htu, iat, jti, ath, nonce) and hands it to a
    // fetch; the HTTP transport sends it, so that fetch only takes the headers.
    const capture = (_url: string, init?: RequestInit): Promise<Response> => {
      sent = init?.headers as Record<string, string>;
      return Promise.resolve(new Response(null, { status: 204 }));
    };
    await oauth.protectedResourceRequest(token, method, url, undefined, undefined, {
      DPoP: this.handle,
      [oauth.customFetch]: capture,
      [oauth.allowInsecureRequests]: true,
    });
    return { authorization: sent!.authorization!, dpop: sent!.dpop! };
  }

  /** A nonce the MCP server sent (`DPoP-Nonce`, RFC 9449 §9), for the next proofs to it. */
  resourceNonce(url: URL, nonce: string): void {
    if (nonce.length > MAX_NONCE_CHARS || !/^[\x21\x23-\x5B\x5D-\x7E]+$/.test(nonce)) return;
    if (!this.resourceNonces.has(url.origin) && this.resourceNonces.size >= MAX_ORIGINS) this.resourceNonces.clear();
    this.resourceNonces.set(url.origin, nonce);
  }
}

/** RFC 9449 §8.1 nonces are NQCHAR strings; a longer one is not kept. */
const MAX_NONCE_CHARS = 1024;
const MAX_ORIGINS = 8;
