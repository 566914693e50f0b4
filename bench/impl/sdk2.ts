/** Official SDK v2 (@modelcontextprotocol/client + /server 2.4.0): McpServer + Client on its own transports. */
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { Harness, Implementation, SpawnedSession } from "../harness.js";
import { CLIENT_INFO, sumOf, type Variant } from "../workload.js";
import { createSdk2Server } from "../servers/sdk2-server.js";
import { serverNodeFlags, serverScript, startHttpServer, stopChild } from "../children.js";

async function harnessOver(
  client: Client,
  variant: Variant,
  close: () => Promise<void>,
  serverPid?: number,
): Promise<Harness> {
  // Real clients list tools first; the SDK also caches output schemas from it to validate structuredContent.
  await client.listTools();
  return {
    serverPid,
    async call(a, b) {
      return sumOf(await client.callTool({ name: "add", arguments: { a, b } }), variant);
    },
    close,
  };
}

async function connectStdio(variant: Variant): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...serverNodeFlags(), serverScript("sdk2-stdio"), variant],
    stderr: "inherit",
  });
  const client = new Client(CLIENT_INFO);
  await client.connect(transport);
  return { client, transport };
}

export const sdk2: Implementation = {
  async inproc({ variant }) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createSdk2Server(variant);
    await server.connect(serverSide);
    const client = new Client(CLIENT_INFO);
    await client.connect(clientSide);
    return harnessOver(client, variant, async () => {
      await client.close();
      await server.close();
    });
  },

  async stdio({ variant }) {
    const { client, transport } = await connectStdio(variant);
    return harnessOver(client, variant, () => client.close(), transport.pid ?? undefined);
  },

  async spawnInitialized({ variant }): Promise<SpawnedSession> {
    const { client, transport } = await connectStdio(variant);
    return { serverPid: transport.pid!, close: () => client.close() };
  },

  async http({ variant }) {
    const { child, url } = await startHttpServer("sdk2-http", [variant]);
    const client = new Client(CLIENT_INFO);
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
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
