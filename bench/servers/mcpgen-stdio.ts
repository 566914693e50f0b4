/** mcpgen stdio server. Usage: mcpgen-stdio.js <variant> */
import { StdioServerTransport } from "@mcpgen/runtime/stdio";
import { parseVariant } from "../workload.js";
import { createMcpgenServer } from "./mcpgen-server.js";

const session = await createMcpgenServer(new StdioServerTransport(), parseVariant(process.argv[2]));
session.onclose = () => process.exit(0);
