import type { Agent } from "node:http";
import type { HttpDriver, HttpDriverOptions } from "./driver.js";
import { FetchHttpDriver } from "./fetch-driver.js";
import { NodeHttpDriver } from "./request.js";

/**
 * The transports' driver on Node (`#http-driver` under the "node" condition): node:http with
 * keep-alive, faster there than Node's fetch, unless a `fetch` is given.
 */
export function defaultHttpDriver(o: HttpDriverOptions): HttpDriver {
  if (o.fetch !== undefined) return new FetchHttpDriver(o.url, o.auth, o.fetch);
  return new NodeHttpDriver(o.url, o.agent as Agent | undefined, o.auth);
}
