/**
 * The everything example's generated server behind `createFetchHandler`, as a bundle for each
 * host: a Worker `fetch` export for workerd, `Bun.serve` and `Deno.serve` on 127.0.0.1 at a free
 * port (printing `listening on <url>`), the same handler in each.
 */
import { join } from "node:path";
import { mkdirSync, writeFileSync } from "node:fs";
import { repoRoot } from "../helpers.js";
import { bundleFor, serveOn, serveWorker, type Host, type Served } from "./runtimes.js";

const SERVER = JSON.stringify(join(repoRoot, "dist", "examples", "everything", "src", "server.js"));

/** `options` is the FetchHandlerOptions literal (JavaScript source). */
export function everythingEntry(host: Host, options = "{}"): string {
  const head = `import { createFetchHandler } from "@mcpgen/runtime/fetch";
import { createServer } from ${SERVER};
const handler = createFetchHandler(createServer(), ${options});
`;
  // The handler is the Worker's fetch itself, so it gets ctx.waitUntil for the task runs that outlive a response.
  if (host === "workerd") return `${head}export default { fetch: handler };\n`;
  if (host === "bun") {
    // idleTimeout 0: a listen stream stays open without traffic for as long as the client wants.
    return `${head}const s = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, fetch: handler });
console.log("listening on http://127.0.0.1:" + s.port + "/mcp");
`;
  }
  return `${head}Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log("listening on http://127.0.0.1:" + port + "/mcp") }, handler);
`;
}

/** Bundles and starts the everything server on `host`; its MCP endpoint is `url`. */
export async function serveEverything(host: Host, dir: string, options?: string): Promise<Served> {
  mkdirSync(dir, { recursive: true });
  const { code } = await bundleFor(host, everythingEntry(host, options));
  if (host === "workerd") {
    const w = await serveWorker(code, join(dir, "persist"));
    return { url: new URL("/mcp", w.url), stop: w.stop };
  }
  const file = join(dir, `${host}-server.mjs`);
  writeFileSync(file, code);
  return serveOn(host, file, join(dir, "deno-dir"));
}
