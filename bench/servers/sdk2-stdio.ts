/** SDK v2 stdio server. Usage: sdk2-stdio.js <variant> */
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { parseVariant } from "../workload.js";
import { createSdk2Server } from "./sdk2-server.js";

const server = createSdk2Server(parseVariant(process.argv[2]));
await server.connect(new StdioServerTransport());
process.stdin.on("end", () => process.exit(0));
