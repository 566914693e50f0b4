/** The generated bench server over stdio. Usage: mcpgen-stdio.js <variant> */
import { StdioServerTransport } from "@mcpgen/runtime/stdio";
import { parseVariant } from "../workload.js";
import { createMcpgenServer } from "./mcpgen-server.js";

const session = await (await createMcpgenServer(parseVariant(process.argv[2]))).connect(new StdioServerTransport());
session.onclose = () => process.exit(0);
