/**
 * mcpgen as a user runs it: the server generated from bench/add/<variant>.manifest.json and its
 * generated typed client (`client.tools.add(...)`), default revisions (the client negotiates as
 * it would in an application), argument and output validation on at both ends.
 */
import { createMemoryTransportPair, type Transport } from "@mcpgen/runtime";
import { StdioClientTransport } from "@mcpgen/runtime/stdio";
import { StreamableHttpClientTransport } from "@mcpgen/runtime/http";
import {
  clientBindings as textBindings,
  createBenchAddClient as createTextClient,
  type BenchAddClient as TextClient,
} from "../add/text/client.js";
import {
  clientBindings as structuredBindings,
  createBenchAddClient as createStructuredClient,
  type BenchAddClient as StructuredClient,
} from "../add/structured/client.js";
import type { Harness, Implementation, SpawnedSession } from "../harness.js";
import { CLIENT_INFO, type Variant } from "../workload.js";
import { createMcpgenServer } from "../servers/mcpgen-server.js";
import { serverNodeFlags, serverScript, startHttpServer, stopChild } from "../children.js";

type Client = TextClient | StructuredClient;

/** `legacyOnly`: the client offers 2025-11-25 alone, so the legacy era is what runs. */
function connect(transport: Transport, variant: Variant, legacyOnly = false): Promise<Client> {
  const all = variant === "structured" ? structuredBindings : textBindings;
  const options = {
    clientInfo: CLIENT_INFO,
    bindings: legacyOnly ? all.filter((b) => b.revision === "2025-11-25") : all,
  };
  return variant === "structured" ? createStructuredClient(transport, options) : createTextClient(transport, options);
}

/** The typed result read back: `structured` was validated against outputSchema by the client. */
function callOf(client: Client, variant: Variant): (a: number, b: number) => Promise<number> {
  if (variant === "structured") {
    const c = client as StructuredClient;
    return async (a, b) => {
      const r = await c.tools.add({ a, b });
      if (r.isError) throw new Error(`add failed: ${JSON.stringify(r.content)}`);
      return r.structured.sum;
    };
  }
  const c = client as TextClient;
  return async (a, b) => {
    const r = await c.tools.add({ a, b });
    const first = r.content[0];
    if (r.isError || first?.type !== "text") throw new Error(`bad text result: ${JSON.stringify(r)}`);
    return Number(first.text);
  };
}

async function harnessOver(
  client: Client,
  variant: Variant,
  close: () => Promise<void>,
  serverPid?: number,
): Promise<Harness> {
  await client.listTools();
  return { serverPid, revision: client.protocolVersion, call: callOf(client, variant), close };
}

async function connectStdio(
  variant: Variant,
  legacyOnly = false,
): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...serverNodeFlags(), serverScript(`mcpgen-stdio-${variant}`)],
    stderr: "inherit",
  });
  return { client: await connect(transport, variant, legacyOnly), transport };
}

export const mcpgen: Implementation = {
  async inproc({ variant }) {
    const [clientSide, serverSide] = createMemoryTransportPair();
    const connection = await (await createMcpgenServer(variant)).connect(serverSide);
    const client = await connect(clientSide, variant);
    return harnessOver(client, variant, async () => {
      await client.close();
      await connection.close();
    });
  },

  async stdio({ variant }) {
    const { client, transport } = await connectStdio(variant);
    return harnessOver(client, variant, () => client.close(), transport.pid);
  },

  async spawnInitialized({ variant }): Promise<SpawnedSession> {
    const { client, transport } = await connectStdio(variant);
    return { serverPid: transport.pid!, close: () => client.close() };
  },

  async http({ variant }) {
    const { child, url } = await startHttpServer("mcpgen-http", [variant]);
    const client = await connect(new StreamableHttpClientTransport({ url }), variant);
    return harnessOver(
      client,
      variant,
      async () => {
        await client.close();
        await stopChild(child);
      },
      child.pid,
    );
  },
};

/** The same over stdio with a client that offers 2025-11-25 only (the legacy era's per-message path and start). */
export const mcpgenLegacy: Implementation = {
  inproc() {
    throw new Error("mcpgen-legacy runs over stdio only");
  },

  async stdio({ variant }) {
    const { client, transport } = await connectStdio(variant, true);
    return harnessOver(client, variant, () => client.close(), transport.pid);
  },

  async spawnInitialized({ variant }): Promise<SpawnedSession> {
    const { client, transport } = await connectStdio(variant, true);
    return { serverPid: transport.pid!, close: () => client.close() };
  },
};
