/**
 * The client's cache of 2026-07-28 results
 * (https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching): fresh while
 * `now < receivedAt + ttlMs`, keyed by method plus the params that shape the result (everything but
 * `_meta`), dropped at once by the list-changed / updated notification that concerns it. One client
 * is one authorization context, so `private` and `public` entries are both reusable here.
 * Input-required results and retries never reach it (the caller decides).
 */
import type { Params, Result } from "../../session/types.js";
import { CACHEABLE_METHODS, ttlOf } from "./client-result.js";

interface Entry {
  readonly method: string;
  readonly uri: string | undefined;
  readonly result: Result;
  readonly expires: number;
}

/** Which cached methods a change notification makes stale. */
const INVALIDATES: Readonly<Record<string, readonly string[]>> = {
  "notifications/tools/list_changed": ["tools/list"],
  "notifications/prompts/list_changed": ["prompts/list"],
  "notifications/resources/list_changed": ["resources/list", "resources/templates/list"],
};

export class ResultCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxEntries = 256,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The key of a cacheable request, undefined when the request must not be cached. */
  key(method: string, params: Params | undefined): string | undefined {
    if (!CACHEABLE_METHODS.has(method)) return undefined;
    if (params?.inputResponses !== undefined || params?.requestState !== undefined) return undefined;
    let shaped = "";
    if (params !== undefined) {
      const names = Object.keys(params)
        .filter((k) => k !== "_meta")
        .sort();
      shaped = JSON.stringify(names.map((k) => [k, params[k]]));
    }
    return `${method}\u0000${shaped}`;
  }

  get(key: string): Result | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (this.now() >= e.expires) {
      this.entries.delete(key);
      return undefined;
    }
    return e.result;
  }

  /** Keep a complete result for its `ttlMs` (nothing is kept for 0, absent or negative). */
  put(key: string, method: string, params: Params | undefined, result: Result): void {
    const ttl = ttlOf(result);
    if (ttl === 0) {
      // A newer answer that may not be kept also retires the older one.
      this.entries.delete(key);
      return;
    }
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
    const uri = typeof params?.uri === "string" ? params.uri : undefined;
    this.entries.delete(key);
    this.entries.set(key, { method, uri, result, expires: this.now() + ttl });
  }

  /** Drop what a notification says has changed. */
  invalidate(notification: string, params: Params | undefined): void {
    if (notification === "notifications/resources/updated") {
      const uri = params?.uri;
      for (const [k, e] of this.entries) if (e.method === "resources/read" && e.uri === uri) this.entries.delete(k);
      return;
    }
    const methods = INVALIDATES[notification];
    if (methods === undefined) return;
    for (const [k, e] of this.entries) if (methods.includes(e.method)) this.entries.delete(k);
  }

  /** Drop every page of one method (an invalid cursor restarts the listing). */
  dropMethod(method: string): void {
    for (const [k, e] of this.entries) if (e.method === method) this.entries.delete(k);
  }

  clear(): void {
    this.entries.clear();
  }
}
