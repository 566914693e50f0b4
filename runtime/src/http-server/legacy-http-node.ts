/**
 * `#legacy-http` on Node (and any host without a condition of its own): Node's build of the fetch
 * handler serves legacy sessions for any server, as the node:http handler does, because Node's
 * core (what a stdio server loads) carries the legacy era without its HTTP side (core.ts).
 */
import { legacyHttp, type LegacyHttp } from "./legacy-http.js";

export const hostLegacyHttp: LegacyHttp | undefined = legacyHttp;
