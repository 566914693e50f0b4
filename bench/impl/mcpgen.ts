/** mcpgen's runtime (@mcpgen/runtime) with the generated 2025-11-25 binding, validation on. */
import { connectClient, createMemoryTransportPair, type ClientSession, type Transport } from "@mcpgen/runtime";
import { binding } from "../../generated/2025-11-25/index.js";
import type { Harness, Implementation } from "../harness.js";
import { CLIENT_INFO, sumOf, type Variant } from "../workload.js";
import { createMcpgenServer } from "../servers/mcpgen-server.js";

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

const notYet = (what: string) => () => Promise.reject(new Error(`${what} is not on main yet`));

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
  stdio: notYet("the runtime's stdio transport"),
  spawnInitialized: notYet("the runtime's stdio transport"),
  http: notYet("the runtime's Streamable HTTP transport"),
};
