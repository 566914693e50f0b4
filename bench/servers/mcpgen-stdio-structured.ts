/**
 * The generated structured-variant bench server over stdio, a static import of its generated
 * server as in mcpgen-stdio-text.ts; the handler answers as mcpgen-server.ts's does.
 * Usage: mcpgen-stdio-structured.js
 */
import { StdioServerTransport } from "@mcpgen/runtime/stdio";
import { toolResult } from "@mcpgen/runtime/facades";
import { createBenchAddServer } from "../add/structured/server.js";

const server = createBenchAddServer({
  tools: {
    add: ({ a, b }) =>
      toolResult({ structuredContent: { sum: a + b }, content: [{ type: "text", text: String(a + b) }] }),
  },
});
const session = await server.connect(new StdioServerTransport());
session.onclose = () => process.exit(0);
