/**
 * What every 2026-07-28 result carries
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/index#resulttype,
 * https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching): `resultType`,
 * the server's identity in `_meta`, and caching hints on the results that require them.
 */
import type { Params, Result } from "../../session/types.js";
import type { Implementation } from "../common/types.js";
import { ownCopy } from "../../session/own-copy.js";
import { sharedResultMeta } from "../../framing/result-meta.js";
import type { MetaKey } from "./wire.js";

export interface CacheHint {
  readonly ttlMs: number;
  readonly cacheScope: "public" | "private";
}

/** Methods whose complete results must carry `ttlMs` and `cacheScope`. */
export const CACHEABLE: ReadonlySet<string> = new Set([
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);

/** Never cache what answered a retry (§12.5): a request carrying `inputResponses`/`requestState`. */
export function isRetry(params: Params | undefined): boolean {
  return params !== undefined && (params.inputResponses !== undefined || params.requestState !== undefined);
}

/**
 * The wire result: `result` with `resultType`, `_meta.serverInfo` and, when complete and cacheable, the hint.
 * A result without a `_meta` of its own gets the server's shared one (serverMeta), whose text a
 * text transport writes without serialising it again (TransportHints.sendResult).
 * On every response's path: copies by `ownCopy` (a spread then new keys is slow on Node 20), keys
 * written as literals, and `delete` only on the rare input_required path. `fresh`: `result` is a
 * new object made for this response alone (nobody else holds it), completed in place.
 */
export function modernResult(
  result: Result,
  serverInfo: Implementation,
  hint: CacheHint | undefined,
  fresh = false,
): Result {
  const out: Result = fresh ? result : ownCopy(result);
  out.resultType ??= "complete";
  const meta = out._meta;
  if (typeof meta === "object" && meta !== null) {
    const m: Result = ownCopy(meta as Result);
    m["io.modelcontextprotocol/serverInfo" satisfies typeof MetaKey.serverInfo] = serverInfo;
    out._meta = m;
  } else {
    out._meta = serverMeta(serverInfo);
  }
  if (out.resultType === "complete") {
    if (hint !== undefined) {
      if (typeof out.ttlMs !== "number") out.ttlMs = hint.ttlMs;
      if (out.cacheScope !== "public" && out.cacheScope !== "private") out.cacheScope = hint.cacheScope;
    }
  } else if (out.resultType === "input_required") {
    // A CreateTaskResult's ttlMs is the task's retention, not a caching hint: it stays.
    if ("ttlMs" in out) delete out.ttlMs;
    if ("cacheScope" in out) delete out.cacheScope;
  }
  return out;
}

type ServerMeta = Readonly<Record<typeof MetaKey.serverInfo, Implementation>>;

/** A server's serverInfo is one object for all its results: the last one asked for, then any. */
let lastInfo: Implementation | undefined;
let lastMeta: ServerMeta | undefined;
const metaByInfo = new WeakMap<Implementation, ServerMeta>();

/** The `_meta` of results that bring none, one shared (frozen) object per serverInfo. */
function serverMeta(serverInfo: Implementation): ServerMeta {
  if (serverInfo === lastInfo) return lastMeta!;
  let meta = metaByInfo.get(serverInfo);
  if (meta === undefined) {
    meta = sharedResultMeta({ "io.modelcontextprotocol/serverInfo": serverInfo } satisfies ServerMeta);
    metaByInfo.set(serverInfo, meta);
  }
  lastInfo = serverInfo;
  lastMeta = meta;
  return meta;
}
