/** mcpgen's runtime (@mcpgen/runtime) with the generated 2025-11-25 binding, validation on. */
import { connectClient, createMemoryTransportPair, type ClientSession, type Transport } from "@mcpgen/runtime";
import { StdioClientTransport } from "@mcpgen/runtime/stdio";
import { StreamableHttpClientTransport } from "@mcpgen/runtime/http";
import { binding } from "@mcpgen/runtime/protocol/2025-11-25";
import type { Harness, Implementation, SpawnedSession } from "../harness.js";
import { CLIENT_INFO, sumOf, type Variant } from "../workload.js";
import { createMcpgenServer } from "../servers/mcpgen-server.js";
import { serverNodeFlags, serverScript, startHttpServer, stopChild } from "../children.js";

function connect(transport: Transport): Promise<ClientSession> {
  return connectClient({ transport, bindings: [binding], clientInfo: CLIENT_INFO });
}

async function harnessOver(client: ClientSession, variant: Variant, close: () => Promise<void>, serverPid?: number): Promise<Harness> {
  await client.request("tools/list");
  return {
    serverPid,
    async call(a, b) {
      return sumOf(await client.request("tools/call", { name: "add", arguments: { a, b } }), variant);
    },
    close,
  };
}

async function connectStdio(variant: Variant): Promise<{ client: ClientSession; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...serverNodeFlags(), serverScript("mcpgen-stdio"), variant],
    stderr: "inherit",
  });
  return { client: await connect(transport), transport };
}

export const mcpgen: Implementation = {
  async inproc({ variant }) {
    const [clientSide, serverSide] = createMemoryTransportPair();
    const server = await createMcpgenServer(serverSide, variant);
    const client = await connect(clientSide);
    return harnessOver(client, variant, async () => {
      await client.close();
      await server.close();
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
    const client = await connect(new StreamableHttpClientTransport({ url }));
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
