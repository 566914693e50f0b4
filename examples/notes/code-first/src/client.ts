// The generated typed client driving the code-first notes server over stdio
// (`node dist/examples/notes/code-first/src/client.js`).
import { fileURLToPath } from "node:url";
import { StdioClientTransport } from "@mcpgen/runtime/stdio";
import { createNotesClient } from "./mcp/client.js";

const server = fileURLToPath(new URL("./server.js", import.meta.url));
const notes = await createNotesClient(new StdioClientTransport({ command: process.execPath, args: [server] }), {
  clientInfo: { name: "notes-client", version: "1.0.0" },
});
try {
  const added = await notes.tools.addNote({
    title: "Groceries",
    body: "milk, eggs",
    tags: ["home"],
    source: { app: "cli" },
  });
  if (added.isError) throw new Error("addNote failed");
  console.log(`added #${added.structured.id} ${added.structured.title}`);
  await notes.tools.addNote({ title: "Standup", body: "ship extract", tags: ["work"] });
  const found = await notes.tools.searchNotes({ tag: "home" });
  if (!found.isError)
    console.log(`search home: ${found.structured.total} (${found.structured.notes.map((n) => n.title).join(", ")})`);
  const one = (await notes.resources.note({ id: "1" })).contents[0]!;
  console.log(`${one.uri}: ${"text" in one ? one.text : ""}`);
  const prompt = await notes.prompts.summarise({ tag: "work" });
  console.log(`summarise: ${prompt.messages.length} message(s)`);
} finally {
  await notes.close();
}
