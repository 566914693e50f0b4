/**
 * The dual-era client
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#backward-compatibility-with-initialization-based-versions,
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio#backward-compatibility,
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#backward-compatibility):
 * probe with `server/discover`; a discover result or a recognizably modern error means a 2026-era
 * server, anything else (another error, an HTTP refusal, no answer in time) means a legacy one,
 * which gets the `initialize` handshake on the same session. The outcome is remembered per server.
 */
import type { ProtocolBinding } from "../../abi.js";
import { loadTables } from "../../lazy-binding.js";
import { ErrorCode } from "../../jsonrpc.js";
import { McpError, RequestTimeoutError } from "../../errors.js";
import type { Transport } from "../../transport.js";
import { connectClient, handshake, prepareLegacyClient, type ClientSession } from "../legacy/client.js";
import type { ClientOptions } from "../legacy/types.js";
import {
  connectModernClient,
  createModernCore,
  discover,
  modernBindings,
  ModernClientSession,
  NoCommonModernVersionError,
  type ModernClientOptions,
} from "./client-session.js";

export type ClientEra = "modern" | "legacy";

/** Either era's client session; `era` tells which. */
export type AnyClientSession = ClientSession | ModernClientSession;

/** Codes only a 2026-era server answers with (on HTTP they come with a 4xx). */
const MODERN_CODES: ReadonlySet<number> = new Set([
  ErrorCode.UnsupportedProtocolVersion,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.HeaderMismatch,
]);

/** Default bound on the probe: a legacy server may not answer an unknown request before initialize at all. */
export const DEFAULT_PROBE_TIMEOUT_MS = 10_000;

/**
 * The era each server turned out to speak: stdio servers are keyed by their transport (one
 * process), HTTP servers by the endpoint URL's origin and path. Entries are hints: a failed
 * connection under a remembered era forgets it, so the next connection probes again.
 */
export class EraCache {
  private readonly byUrl = new Map<string, ClientEra>();
  private readonly byTransport = new WeakMap<object, ClientEra>();

  private key(t: Transport): string | object {
    const url = (t as { url?: unknown }).url;
    if (url instanceof URL) return `${url.origin}${url.pathname}`;
    return t;
  }
  get(t: Transport): ClientEra | undefined {
    const k = this.key(t);
    return typeof k === "string" ? this.byUrl.get(k) : this.byTransport.get(k);
  }
  set(t: Transport, era: ClientEra): void {
    const k = this.key(t);
    if (typeof k === "string") this.byUrl.set(k, era);
    else this.byTransport.set(k, era);
  }
  delete(t: Transport): void {
    const k = this.key(t);
    if (typeof k === "string") this.byUrl.delete(k);
    else this.byTransport.delete(k);
  }
}

/** The process-wide era cache `connectAnyEra` uses unless given another (or `false`). */
export const defaultEraCache = new EraCache();

export interface AnyEraOptions extends ModernClientOptions {
  /** `auto` (default): probe and prefer 2026-07-28; or pin one era. */
  era?: "auto" | ClientEra;
  /** Bound on the probe's server/discover in ms (default 10 000). */
  probeTimeout?: number;
  eraCache?: EraCache | false;
}

/** Whether a failed probe still shows a 2026-era server. */
export function isModernRefusal(e: unknown): e is McpError {
  return e instanceof McpError && MODERN_CODES.has(e.code);
}

/**
 * Connect in whichever era the server speaks, preferring 2026-07-28 when both sides can.
 * Without a modern binding this is the legacy handshake; without a legacy one, the modern era.
 */
export async function connectAnyEra(options: AnyEraOptions): Promise<AnyClientSession> {
  // Each path loads the tables of its own era's revisions (validators per method): a client that
  // stays in 2026-07-28 never loads a legacy table, and one that falls back loads them then.
  const modern = modernBindings(options.bindings);
  const hasLegacy = options.bindings.some((b) => b.era === "legacy");
  const pinned = options.era ?? "auto";
  const legacyOptions: ClientOptions = {
    ...options,
    ...(options.protocolVersion !== undefined && modern.some((b) => b.revision === options.protocolVersion)
      ? { protocolVersion: undefined }
      : {}),
  };
  const cache = options.eraCache === false ? undefined : (options.eraCache ?? defaultEraCache);
  if (pinned === "modern" || (pinned === "auto" && !hasLegacy)) return connectModernClient(options);
  // Asking for a legacy revision by name is asking for the legacy era.
  const legacyAsked =
    options.protocolVersion !== undefined &&
    options.bindings.some((b) => b.era === "legacy" && b.revision === options.protocolVersion);
  if (pinned === "legacy" || modern.length === 0 || (pinned === "auto" && legacyAsked))
    return legacyOnly(legacyOptions, cache, false);
  if (cache?.get(options.transport) === "legacy") return legacyOnly(legacyOptions, cache, true);

  let first: ProtocolBinding = modern[0]!;
  if (options.protocolVersion !== undefined)
    first = modern.find((b) => b.revision === options.protocolVersion) ?? first;
  await loadTables(modern);
  const core = createModernCore(options, modern, first);
  await options.transport.start();
  let probe: Awaited<ReturnType<typeof discover>> | undefined;
  let fallback = legacyOptions;
  const auth = { failed: false };
  try {
    probe = await probeDiscover(core, options, first, options.probeTimeout ?? DEFAULT_PROBE_TIMEOUT_MS, auth);
  } catch (e) {
    // A 2026-era server whose versions we share only in the legacy era: that lifecycle, with that version.
    const legacyListed =
      e instanceof NoCommonModernVersionError
        ? options.bindings.find((b) => b.era === "legacy" && e.serverVersions.includes(b.revision))
        : undefined;
    if (e instanceof NoCommonModernVersionError && legacyListed === undefined) {
      await core.session.close();
      throw e;
    }
    // A failed authorization says nothing of the era: initialize would only ask for credentials again.
    if (isModernRefusal(e) || core.session.closed || auth.failed) {
      await core.session.close();
      throw e;
    }
    if (legacyListed !== undefined) fallback = { ...legacyOptions, protocolVersion: legacyListed.revision };
    options.onerror?.(
      new Error(`2026-07-28 probe answered ${e instanceof Error ? e.message : String(e)}; falling back to initialize`),
    );
  }
  if (probe !== undefined) {
    cache?.set(options.transport, "modern");
    return new ModernClientSession(core, options, probe.binding, probe.result);
  }
  let policy;
  try {
    await loadTables(options.bindings.filter((b) => b.era === "legacy"));
    policy = prepareLegacyClient(core.session, fallback);
  } catch (e) {
    await core.session.close();
    throw e;
  }
  const session = await handshake(core.session, policy, fallback);
  cache?.set(options.transport, "legacy");
  return session;
}

/**
 * `server/discover` bounded by `timeoutMs` of exchange with the server: while the transport
 * reports an authorization in progress (a person at a login page) the clock stands still, so a
 * slow login neither passes for a legacy server's silence nor sends a 2026-only server the
 * `initialize` it cannot answer.
 */
async function probeDiscover(
  core: ReturnType<typeof createModernCore>,
  options: AnyEraOptions,
  first: ProtocolBinding,
  timeoutMs: number,
  auth: { failed: boolean },
) {
  const watch = options.transport.hints?.watchAuthorization;
  if (watch === undefined) return discover(core, options, first, { timeout: timeoutMs });
  const bounded = timeoutMs > 0 && timeoutMs !== Infinity;
  const abort = new AbortController();
  let left = timeoutMs;
  let since = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = (): void => {
    if (!bounded) return;
    since = Date.now();
    timer = setTimeout(() => abort.abort(new RequestTimeoutError("server/discover", timeoutMs, false)), left);
  };
  let paused = false;
  const stop = watch.call(options.transport.hints, (authorizing, failed) => {
    auth.failed ||= failed;
    if (authorizing === paused || abort.signal.aborted) return;
    paused = authorizing;
    if (!paused) return run();
    if (timer !== undefined) left = Math.max(0, left - (Date.now() - since));
    clearTimeout(timer);
    timer = undefined;
  });
  if (!paused) run();
  try {
    return await discover(core, options, first, { timeout: 0, signal: abort.signal });
  } finally {
    stop();
    clearTimeout(timer);
  }
}

async function legacyOnly(
  options: ClientOptions,
  cache: EraCache | undefined,
  remembered: boolean,
): Promise<ClientSession> {
  try {
    return await connectClient(options);
  } catch (e) {
    if (remembered) cache?.delete(options.transport);
    throw e;
  }
}
