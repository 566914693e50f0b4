import type { HttpDriver, HttpDriverOptions } from "./driver.js";
import { FetchHttpDriver } from "./fetch-driver.js";

/**
 * The transports' driver everywhere but Node (`#http-driver` on workerd, Bun, Deno, browsers):
 * `fetch`, and nothing of Node is imported.
 */
export function defaultHttpDriver(o: HttpDriverOptions): HttpDriver {
  if (o.agent !== undefined)
    throw new Error(
      "the `agent` option is a node:http keep-alive agent; this host sends over fetch (pass `fetch` instead)",
    );
  return new FetchHttpDriver(o.url, o.auth, o.fetch);
}
