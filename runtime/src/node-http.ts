import { nodeBuiltin } from "./node-builtin.js";
import type * as Http from "node:http";
import type * as Https from "node:https";

// node:http and node:https are loaded on first use, not at import time: the package root
// re-exports the HTTP transports, and a stdio-only server should not pay for them (startup time,
// and on Node 22 an ESM import of node:http also loads the bundled fetch stack, ~12 MiB RSS).
let http: typeof Http | undefined;
let https: typeof Https | undefined;

export function nodeHttp(): typeof Http {
  return (http ??= nodeBuiltin<typeof Http>("node:http"));
}

export function nodeHttps(): typeof Https {
  return (https ??= nodeBuiltin<typeof Https>("node:https"));
}
