/** SDK v1 stdio server. Usage: sdk1-stdio.js <variant> */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { parseVariant } from "../workload.js";
import { createSdk1Server } from "./sdk1-server.js";

const server = createSdk1Server(parseVariant(process.argv[2]));
await server.connect(new StdioServerTransport());
process.stdin.on("end", () => process.exit(0));
