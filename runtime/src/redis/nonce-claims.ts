/**
 * Single-use claims of 2026-07-28 `requestState` nonces in Redis, so a state replayed to another
 * instance is refused there too (give every instance the same `requestState.key` as well). One
 * key per claim, `nonce:<nonce>`, expiring with the state it claims.
 */
import type { NonceClaims } from "../lifecycle/modern/request-state.js";
import type { RedisConnection } from "./connection.js";

export class RedisNonceClaims implements NonceClaims {
  constructor(private readonly redis: RedisConnection) {}

  async claim(nonce: string, expires: number, now: number): Promise<boolean> {
    // An expired state is refused before it is claimed; a claim lives at least 1 ms.
    const ttl = String(Math.max(1, Math.ceil(expires - now)));
    return (
      (await this.redis.command<string | null>(["SET", this.redis.key("nonce", nonce), "1", "NX", "PX", ttl])) === "OK"
    );
  }

  async release(nonce: string): Promise<void> {
    await this.redis.command(["DEL", this.redis.key("nonce", nonce)]);
  }
}
