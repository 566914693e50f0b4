/**
 * `requestState` of multi round-trip requests
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#security-considerations):
 * an HMAC-SHA256-signed envelope the client echoes byte for byte. It is bound to the method, a
 * digest of the request's salient params (everything but `_meta`, `inputResponses` and
 * `requestState`) and an expiry, and carries the input answers of earlier rounds so a re-run
 * handler finds them again. Signed, not encrypted: it holds only what the client itself answered.
 *
 * Size: a state the server mints is one it accepts back. It is "v1." + base64url of the JSON
 * envelope + "." + the 43-character tag, so answers whose JSON is N bytes make it about 4/3·N + 200
 * characters; answers that would take it past `maxBytes` are refused in the round they arrive
 * (-32602: the request's params cannot be carried), and the same `maxBytes` bounds what is accepted.
 *
 * Replay: each state carries a random nonce. With `singleUse` (default) a nonce is claimed when a
 * retry starts and stays claimed until the state expires, unless that retry is cancelled (then
 * the client may send the same state again). Claims live in a NonceClaims: this process's memory
 * by default; instances behind a load balancer give the same `key` and a shared NonceClaims
 * (`@mcpgen/runtime/redis`), so a replay sent to another instance is refused too.
 *
 * WebCrypto (`crypto.subtle`), so minting and verifying are asynchronous and run on every host
 * (Node, workerd, Bun, Deno); the tag is checked by `subtle.verify`, in constant time.
 */
import { fromBase64Url, randomBytes, toBase64Url, utf8Bytes, utf8Text } from "../../bytes.js";
import { ErrorCode, type JSONRPCErrorObject } from "../../jsonrpc.js";
import { McpError } from "../../errors.js";
import { REQUEST_STATE_MAX_CHARS } from "../../limits.js";
import type { Params } from "../../session/types.js";

export interface RequestStateOptions {
  /** HMAC key (≥ 32 bytes); default: random per process, so states do not survive a restart. */
  key?: Uint8Array | string;
  /**
   * Keys states may still be signed with (≥ 32 bytes each): accepted, never used to sign. Rotating:
   * the new key becomes `key`, the old one moves here until the states it signed have expired (ttlMs).
   */
  previousKeys?: readonly (Uint8Array | string)[];
  /** Lifetime of a minted state in ms (default 10 minutes). */
  ttlMs?: number;
  /** Refuse a state a second time (default true). */
  singleUse?: boolean;
  /** Largest state accepted, in characters (default 256 KiB); no longer one is minted (answers that would need one are refused). */
  maxBytes?: number;
  /** Where single-use claims are kept (default: this process's memory, MemoryNonceClaims). */
  claims?: NonceClaims;
}

/**
 * The single-use claims of `requestState` nonces. A claim holds until `expires` (the state's own
 * expiry: after it the state is refused anyway). May answer synchronously (the in-memory default,
 * on the hot path) or with a promise (a shared store); a shared store that cannot answer rejects,
 * and the request fails with that error rather than accept a state it cannot check.
 */
export interface NonceClaims {
  /** Claim `nonce` until `expires` (ms since the epoch); false when it is claimed already. */
  claim(nonce: string, expires: number, now: number): boolean | Promise<boolean>;
  /** Give a claim back (the retry was cancelled before it answered). */
  release(nonce: string): void | Promise<void>;
}

/** Claims in this process's memory: at most 65 536, expired and then oldest forgotten first. */
export class MemoryNonceClaims implements NonceClaims {
  /** nonce -> expiry (ms), insertion-ordered. */
  private readonly claims = new Map<string, number>();

  claim(nonce: string, expires: number, now: number): boolean {
    for (const [n, e] of this.claims) {
      if (e > now && this.claims.size < MAX_CLAIMS) break;
      this.claims.delete(n);
    }
    if (this.claims.has(nonce)) return false;
    this.claims.set(nonce, expires);
    return true;
  }

  release(nonce: string): void {
    this.claims.delete(nonce);
  }
}

/** What a verified state says. */
export interface OpenedState {
  readonly nonce: string;
  readonly expires: number;
  /** Input answers of earlier rounds, by key. */
  readonly answers: Readonly<Record<string, unknown>>;
}

const PREFIX = "v1.";
const LABEL = "mcpgen.requestState.v1.";
const DEFAULT_TTL_MS = 10 * 60_000;
/** base64url of an HMAC-SHA256 tag (32 bytes). */
const TAG_CHARS = 43;
/** Cap on remembered nonces; the oldest claims are forgotten first beyond it. */
const MAX_CLAIMS = 65_536;
const MAX_DIGEST_DEPTH = 64;

function keyBytes(key: Uint8Array | string): Uint8Array {
  const bytes = typeof key === "string" ? utf8Bytes(key) : new Uint8Array(key);
  if (bytes.length < 32) throw new RangeError(`requestState key must be at least 32 bytes (got ${bytes.length})`);
  return bytes;
}

type CryptoKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

function hmacKey(bytes: Uint8Array): Promise<CryptoKey> {
  return globalThis.crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

function invalidState(reason: string): JSONRPCErrorObject {
  return {
    code: ErrorCode.InvalidParams,
    message: `Invalid params: requestState ${reason}`,
    data: { pointer: "/params/requestState", reason },
  };
}

/** Canonical JSON (sorted keys) of the params a state is bound to. */
function canonical(v: unknown, depth: number): string {
  if (depth > MAX_DIGEST_DEPTH) throw new RangeError("params nest too deeply");
  if (Array.isArray(v)) return `[${v.map((x) => canonical(x, depth + 1)).join(",")}]`;
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k], depth + 1)}`).join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/** sha256 (base64url) of the salient params: the request without `_meta`, `inputResponses` and `requestState`. */
export async function paramsDigest(params: Params | undefined): Promise<string> {
  const salient: Record<string, unknown> = {};
  for (const k of Object.keys(params ?? {})) {
    if (k !== "_meta" && k !== "inputResponses" && k !== "requestState") salient[k] = params![k];
  }
  const text = canonical(salient, 0);
  return toBase64Url(new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", utf8Bytes(text))));
}

export class RequestStateCodec {
  /** The signing key's bytes: the one given, else random, drawn on first use (not at start). */
  private keyBytes: Uint8Array | undefined;
  /** The signing key, imported on first use; then the keys that only verify. */
  private signing: Promise<CryptoKey> | undefined;
  private readonly previous: readonly Uint8Array[];
  private verifying: Promise<CryptoKey[]> | undefined;
  private readonly ttlMs: number;
  private readonly singleUse: boolean;
  private readonly maxBytes: number;
  private readonly claims: NonceClaims;

  constructor(options: RequestStateOptions = {}) {
    if (options.key !== undefined) this.keyBytes = keyBytes(options.key);
    this.previous = (options.previousKeys ?? []).map(keyBytes);
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    if (!(this.ttlMs > 0) || !Number.isFinite(this.ttlMs))
      throw new RangeError("requestState ttlMs must be a positive finite number");
    this.singleUse = options.singleUse ?? true;
    this.maxBytes = options.maxBytes ?? REQUEST_STATE_MAX_CHARS;
    this.claims = options.claims ?? new MemoryNonceClaims();
  }

  private signingKey(): Promise<CryptoKey> {
    return (this.signing ??= hmacKey((this.keyBytes ??= randomBytes(32))));
  }

  /** Every key a state may be signed with, the signing key first. */
  private verifyingKeys(): Promise<CryptoKey[]> {
    return (this.verifying ??= Promise.all([this.signingKey(), ...this.previous.map(hmacKey)]));
  }

  /**
   * A fresh state for `method` + `digest` carrying `answers`. Throws McpError(-32602) when it would
   * be longer than this codec accepts: the answers of the current round are too large to carry.
   */
  async mint(
    method: string,
    digest: string,
    answers: Readonly<Record<string, unknown>>,
    now = Date.now(),
  ): Promise<string> {
    const envelope = { m: method, d: digest, e: now + this.ttlMs, n: toBase64Url(randomBytes(12)), a: answers };
    const body = toBase64Url(utf8Bytes(JSON.stringify(envelope)));
    const size = PREFIX.length + body.length + 1 + TAG_CHARS;
    if (size > this.maxBytes) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid params: inputResponses would make requestState ${size} characters, over this server's limit of ${this.maxBytes} (requestState.maxBytes)`,
        { pointer: "/params/inputResponses", limit: "requestState.maxBytes", max: this.maxBytes, size },
      );
    }
    const tag = await globalThis.crypto.subtle.sign("HMAC", await this.signingKey(), utf8Bytes(LABEL + body));
    return `${PREFIX}${body}.${toBase64Url(new Uint8Array(tag))}`;
  }

  /** Verify a received state against the request it arrived on; an error object refuses it. */
  async open(
    state: unknown,
    method: string,
    digest: string,
    now = Date.now(),
  ): Promise<OpenedState | JSONRPCErrorObject> {
    if (typeof state !== "string") return invalidState("must be a string");
    if (state.length > this.maxBytes) return invalidState("is too large");
    const dot = state.lastIndexOf(".");
    if (!state.startsWith(PREFIX) || dot <= PREFIX.length) return invalidState("is malformed");
    const body = state.slice(PREFIX.length, dot);
    let tag: Uint8Array;
    try {
      tag = fromBase64Url(state.slice(dot + 1));
    } catch {
      return invalidState("failed integrity verification");
    }
    if (tag.length !== 32 || !(await this.verifies(tag, body))) return invalidState("failed integrity verification");
    let env: { m?: unknown; d?: unknown; e?: unknown; n?: unknown; a?: unknown };
    try {
      env = JSON.parse(utf8Text(fromBase64Url(body)));
    } catch {
      return invalidState("is malformed");
    }
    if (typeof env !== "object" || env === null || typeof env.e !== "number" || typeof env.n !== "string")
      return invalidState("is malformed");
    if (env.e <= now) return invalidState("has expired");
    if (env.m !== method) return invalidState(`was issued for ${JSON.stringify(env.m)}, not ${method}`);
    if (env.d !== digest) return invalidState("was issued for a request with different params");
    const answers =
      typeof env.a === "object" && env.a !== null && !Array.isArray(env.a) ? (env.a as Record<string, unknown>) : {};
    return { nonce: env.n, expires: env.e, answers };
  }

  /** Whether `tag` is the HMAC of `body` under any key this codec accepts. */
  private async verifies(tag: Uint8Array, body: string): Promise<boolean> {
    const data = utf8Bytes(LABEL + body);
    for (const key of await this.verifyingKeys())
      if (await globalThis.crypto.subtle.verify("HMAC", key, tag, data)) return true;
    return false;
  }

  /** Claim a state's nonce for one retry (singleUse); false when it was used already. */
  claim(opened: OpenedState, now = Date.now()): boolean | Promise<boolean> {
    if (!this.singleUse) return true;
    return this.claims.claim(opened.nonce, opened.expires, now);
  }

  /** Give a claim back (the retry was cancelled before it answered). */
  release(opened: OpenedState): void | Promise<void> {
    if (this.singleUse) return this.claims.release(opened.nonce);
  }

  static replayed(): JSONRPCErrorObject {
    return invalidState("was already used (each requestState answers one retry)");
  }
}
