/** A legacy-era client and server connected over the in-memory pair. */
import { createMemoryTransportPair } from "@mcpgen/runtime";
import { connectClient, createServerSession, type ClientOptions, type ServerOptions } from "@mcpgen/runtime/internal";
import { bindings } from "./binding.js";

export type ClientPart = Partial<Omit<ClientOptions, "transport">>;
export type ServerPart = Partial<Omit<ServerOptions, "transport">>;

export async function connectPair(opts: { client?: ClientPart; server?: ServerPart } = {}) {
  const [ct, st] = createMemoryTransportPair();
  const errors: Error[] = [];
  const server = await createServerSession({
    bindings,
    serverInfo: { name: "test-server", version: "1.0.0" },
    onerror: (e) => errors.push(e),
    ...opts.server,
    transport: st,
  });
  const client = await connectClient({
    bindings,
    clientInfo: { name: "test-client", version: "1.0.0" },
    onerror: (e) => errors.push(e),
    ...opts.client,
    transport: ct,
  });
  await server.initialized;
  return { client, server, ct, st, errors };
}
