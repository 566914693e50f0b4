/**
 * `legacyEra` as Node's core (core.ts: `./stdio`, `./facades`, `./abi/v8` on Node) exports it: the
 * legacy era's server code without its HTTP side, which a stdio server never uses; Node's HTTP hosts
 * carry that themselves (`#legacy-http`). Bundlers are served abi/v8.ts's, which has it.
 */
import { EraRouter } from "../server/era-router.js";
import { connectLegacy } from "../server/legacy.js";
import type { ServerLegacyEra } from "../server/legacy-era.js";
import { LocalBroadcast } from "../server/broadcast.js";

export const legacyEra: ServerLegacyEra = {
  session: connectLegacy,
  router: (base, prepareModern) => new EraRouter(base, prepareModern),
  changes: LocalBroadcast,
};
