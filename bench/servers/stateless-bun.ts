/**
 * The stateless.ts workload served by Bun.serve (native Request/Response, no bridge), run with
 * `bun dist/bench/servers/stateless-bun.js <kind>`; prints {"port":N} once listening on 127.0.0.1.
 * fetch: mcpgen's createFetchHandler over the same server as stateless-http.ts's; sdk2: SDK v2's
 * createMcpHandler (its web-standard modern path); floor: a fetch handler that parses the body and
 * answers a fixed result (what any handler pays on Bun before doing anything).
 */
import { createFetchHandler } from "@mcpgen/runtime/fetch";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { addResult } from "../workload.js";
import { createSdk2Server } from "./sdk2-server.js";
import { createStatelessMcp } from "./stateless-mcp.js";

declare const Bun: {
  serve(options: {
    hostname: string;
    port: number;
    idleTimeout?: number;
    fetch(request: Request): Response | Promise<Response>;
  }): { port: number };
};

async function floor(request: Request): Promise<Response> {
  const msg = (await request.json()) as { id: number; params: { arguments: { a: number; b: number } } };
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: msg.id,
    result: { ...addResult("text", msg.params.arguments.a, msg.params.arguments.b), resultType: "complete" },
  });
  return new Response(body, { headers: { "content-type": "application/json" } });
}

function handlerOf(kind: string | undefined): (request: Request) => Response | Promise<Response> {
  if (kind === "fetch") return createFetchHandler(createStatelessMcp());
  // As SDK v2 documents serving on Bun: the handler's own `fetch` (a bound property) handed to Bun.serve.
  if (kind === "sdk2") return createMcpHandler(() => createSdk2Server("text")).fetch;
  if (kind === "floor") return floor;
  throw new Error(`usage: stateless-bun.js fetch|sdk2|floor (got ${JSON.stringify(kind)})`);
}

const served = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 60, fetch: handlerOf(process.argv[2]) });
process.stdout.write(JSON.stringify({ port: served.port }) + "\n");
process.on("SIGTERM", () => process.exit(0));
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
