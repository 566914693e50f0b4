/**
 * `#legacy-http` under the workerd, worker, browser, bun and deno conditions: the fetch handler
 * takes the legacy era's HTTP side from the server's legacy era alone (legacy-http.ts), so the
 * bundle of a server of 2026-07-28 alone carries none of it.
 */
import type { LegacyHttp } from "./legacy-http.js";

export const hostLegacyHttp: LegacyHttp | undefined = undefined;
