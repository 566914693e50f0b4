/**
 * The legacy era's side of Streamable HTTP: the session table of a stateful endpoint (`initialize`
 * opens a session, `Mcp-Session-Id`, GET streams, DELETE), the event store its streams resume from,
 * and the 2024-11-05 HTTP+SSE handler. A server of 2026-07-28 alone needs none of it: its POSTs are
 * stateless. Bundlers reach it only through the legacy era a generated server hands the runtime
 * (`legacyEra.http`, abi/v8.ts), so a Worker of 2026-07-28 alone leaves it out; Node's build of the
 * hosts imports it themselves (`#legacy-http`, legacy-http-node.ts), and so does the node:http host.
 */
import type { Transport } from "../transport.js";
import type { HostOriginOptions } from "./security.js";
import type { HttpRequestIn } from "../http-exchange.js";
import { EndpointWithLegacy } from "./endpoint-with-legacy.js";
import type { HttpEndpointOptions, StreamableHttpEndpoint } from "./endpoint.js";
import { createLegacySseHandler, type LegacySseOptions } from "./legacy-sse.js";
import type { LegacySseLimits, LegacySseMount } from "./legacy-sse-mount.js";

/** What of a fetch handler's options the HTTP+SSE handler mounted with `legacySse` shares. */
const SHARED_WITH_SSE = ["dnsRebindingProtection", "allowedHosts", "allowedOrigins", "onerror"] as const;

/** The fetch handler's options the HTTP+SSE handler mounted beside it shares (SHARED_WITH_SSE). */
export interface LegacySseShared extends HostOriginOptions {
  onerror?: (error: Error) => void;
}

export interface LegacyHttp {
  /**
   * The endpoint with the legacy shape (endpoint-with-legacy.ts): its sessions (the transports of
   * its stateless and 2026-07-28 POSTs too), GET streams and DELETE.
   */
  endpoint<Req extends HttpRequestIn>(options: HttpEndpointOptions<Req>): StreamableHttpEndpoint<Req>;
  /**
   * The 2024-11-05 HTTP+SSE handler beside the endpoint (the fetch handler's `legacySse`: true or
   * its limits), with the handler's Host/Origin rules and error report where given (else the
   * HTTP+SSE handler's defaults). Here, not in fetch.ts, so a Worker of 2026-07-28 alone carries none of it.
   */
  legacySse(
    limits: true | LegacySseLimits,
    shared: LegacySseShared,
    onsession: (transport: Transport) => void | Promise<void>,
  ): LegacySseMount;
}

export const legacyHttp: LegacyHttp = {
  endpoint: (options) => new EndpointWithLegacy(options),
  legacySse: (limits, shared, onsession) => {
    const options: Record<string, unknown> = { ...(limits === true ? {} : limits), onsession };
    for (const k of SHARED_WITH_SSE) if (shared[k] !== undefined) options[k] = shared[k];
    return createLegacySseHandler(options as unknown as LegacySseOptions);
  },
};
