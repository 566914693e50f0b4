import type { webcrypto } from "node:crypto";
import { OAuthFlowError } from "./errors.js";
import { fromBase64 } from "../bytes.js";

type CryptoKey = webcrypto.CryptoKey;

/** WebCrypto import parameters per JWS algorithm (RFC 7518 names). */
const ALGS: Record<string, webcrypto.RsaHashedImportParams | webcrypto.EcKeyImportParams | webcrypto.Algorithm> = {
  RS256: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
  RS384: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-384" },
  RS512: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-512" },
  PS256: { name: "RSA-PSS", hash: "SHA-256" },
  PS384: { name: "RSA-PSS", hash: "SHA-384" },
  PS512: { name: "RSA-PSS", hash: "SHA-512" },
  ES256: { name: "ECDSA", namedCurve: "P-256" },
  ES384: { name: "ECDSA", namedCurve: "P-384" },
  ES512: { name: "ECDSA", namedCurve: "P-521" },
  EdDSA: { name: "Ed25519" },
  Ed25519: { name: "Ed25519" },
};

/** A PKCS#8 PEM private key as a non-extractable signing CryptoKey for `alg`. */
export async function importPrivateKeyPem(pem: string, alg: string): Promise<CryptoKey> {
  const params = ALGS[alg];
  if (params === undefined)
    throw new OAuthFlowError(
      "unsupported",
      `signing algorithm ${JSON.stringify(alg)} is not supported (use one of ${Object.keys(ALGS).join(", ")})`,
    );
  const m = /-----BEGIN PRIVATE KEY-----([\s\S]+?)-----END PRIVATE KEY-----/.exec(pem);
  if (!m) throw new OAuthFlowError("unsupported", "private key is not a PKCS#8 PEM (-----BEGIN PRIVATE KEY-----)");
  let der: Uint8Array;
  try {
    der = fromBase64(m[1]!.replace(/\s+/g, ""));
  } catch {
    throw new OAuthFlowError("unsupported", "private key PEM is not base64");
  }
  try {
    // The global WebCrypto (Node, workerd, Bun, Deno, browsers), so this module loads on all of them.
    return await (globalThis.crypto as webcrypto.Crypto).subtle.importKey("pkcs8", der, params, false, ["sign"]);
  } catch (e) {
    throw new OAuthFlowError("unsupported", `private key does not import as ${alg}: ${(e as Error).message}`);
  }
}
