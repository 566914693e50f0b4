// The notes server over stdio: the handlers module is the generated NotesHandlers as it stands.
import { StdioServerTransport } from "@mcpgen/runtime/stdio";
import { createNotesServer } from "./mcp/server.js";
import * as handlers from "./notes.js";

await createNotesServer(handlers).connect(new StdioServerTransport());
