/**
 * The generated text-variant bench server over stdio, written as a user's program is: a static
 * import of its generated server, so the stdio start figure pays what a user's start pays (a
 * dynamic import of the variant's server cost about 1 ms more on Node 20). Usage: mcpgen-stdio-text.js
 */
import { StdioServerTransport } from "@mcpgen/runtime/stdio";
import { createBenchAddServer } from "../add/text/server.js";

const server = createBenchAddServer({ tools: { add: ({ a, b }) => String(a + b) } });
const session = await server.connect(new StdioServerTransport());
session.onclose = () => process.exit(0);
