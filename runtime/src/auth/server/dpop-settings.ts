/**
 * The DPoP options of a resource-server guard, checked when the guard is created; the proof
 * checks themselves (./dpop.ts) load with the first DPoP request.
 */
import { randomBytes, utf8Bytes } from "../../bytes.js";
import { DPOP_JTI_CACHE_MAX } from "../../limits.js";

export interface DPoPGuardOptions {
  /** Refuse bearer tokens: every request must present a DPoP-bound token (default false). */
  required?: boolean;
  /** Require proofs to carry a nonce this server issued (`use_dpop_nonce`, RFC 9449 §9; default false). */
  nonce?: boolean;
  /** Secret of the nonces, shared by every instance behind one URL (default: random per guard). */
  nonceSecret?: string | Uint8Array;
  /** How long an issued nonce is accepted, in seconds (default 300). */
  nonceLifetimeSeconds?: number;
  /** JWS algorithms accepted for proofs (default: ES256, ES384, ES512, RS256, RS384, RS512, PS256, PS384, PS512, EdDSA). */
  algorithms?: string[];
  /** A proof's `iat` may be this far from the server's clock, in seconds (default 300, at most 600). */
  proofWindowSeconds?: number;
  /** Proof `jti`s remembered to refuse replays within the window (default `DPOP_JTI_CACHE_MAX`). */
  maxRememberedProofs?: number;
}

/** The asymmetric JWS algorithms a proof may use (RFC 9449 §4.2: never `none` nor a MAC). */
const DPOP_ALGORITHMS: readonly string[] = [
  "ES256",
  "ES384",
  "ES512",
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "EdDSA",
];

const DEFAULT_WINDOW_S = 300;
const MAX_WINDOW_S = 600;

export interface DPoPSettings {
  readonly required: boolean;
  readonly nonces: boolean;
  readonly algorithms: readonly string[];
  /** Seconds. */
  readonly window: number;
  readonly secret: Uint8Array;
  /** Milliseconds. */
  readonly nonceLifetime: number;
  readonly maxJtis: number;
}

export function dpopSettings(o: DPoPGuardOptions): DPoPSettings {
  const algorithms = o.algorithms ?? DPOP_ALGORITHMS;
  for (const a of algorithms)
    if (!DPOP_ALGORITHMS.includes(a))
      throw new RangeError(
        `dpop.algorithms: ${JSON.stringify(a)} is not an asymmetric JWS algorithm (${DPOP_ALGORITHMS.join(", ")})`,
      );
  const window = o.proofWindowSeconds ?? DEFAULT_WINDOW_S;
  if (!(window > 0 && window <= MAX_WINDOW_S))
    throw new RangeError(`dpop.proofWindowSeconds must be in (0, ${MAX_WINDOW_S}] (got ${window})`);
  const lifetime = o.nonceLifetimeSeconds ?? DEFAULT_WINDOW_S;
  if (!(lifetime > 0 && lifetime !== Infinity))
    throw new RangeError(`dpop.nonceLifetimeSeconds must be a positive number of seconds (got ${lifetime})`);
  const maxJtis = o.maxRememberedProofs ?? DPOP_JTI_CACHE_MAX;
  if (!(maxJtis >= 1)) throw new RangeError(`dpop.maxRememberedProofs must be at least 1 (got ${maxJtis})`);
  return {
    required: o.required === true,
    nonces: o.nonce === true,
    algorithms,
    window,
    secret: typeof o.nonceSecret === "string" ? utf8Bytes(o.nonceSecret) : (o.nonceSecret ?? randomBytes(32)),
    nonceLifetime: lifetime * 1000,
    maxJtis,
  };
}
