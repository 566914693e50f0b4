// The same notes server written with the official SDK v1 (zod schemas in code), kept for the
// line-count comparison in docs/code-first.md; `node dist/examples/notes/sdk-v1/server.js` serves stdio.
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import * as z from "zod";

const note = z.object({ id: z.number(), title: z.string(), body: z.string(), tags: z.array(z.string()) });
type Note = z.infer<typeof note>;
const notes: Note[] = [];
const server = new McpServer({ name: "notes", version: "0.1.0" });

server.registerTool(
  "addNote",
  {
    description: "Store a note and return it.",
    inputSchema: {
      title: z.string(),
      body: z.string(),
      tags: z.array(z.string()).optional(),
      source: z.object({ app: z.string(), url: z.string().optional() }).optional(),
    },
    outputSchema: note.shape,
  },
  async (input) => {
    const added = { id: notes.length + 1, title: input.title, body: input.body, tags: input.tags ?? [] };
    notes.push(added);
    return { content: [{ type: "text", text: JSON.stringify(added) }], structuredContent: added };
  },
);

server.registerTool(
  "searchNotes",
  {
    description: "Notes with a tag, newest first.",
    inputSchema: { tag: z.string().optional(), limit: z.number().default(10) },
    outputSchema: { notes: z.array(note), total: z.number() },
    annotations: { readOnlyHint: true },
  },
  async ({ tag, limit }) => {
    const found = notes.filter((n) => tag === undefined || n.tags.includes(tag)).reverse();
    const result = { notes: found.slice(0, limit), total: found.length };
    return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result };
  },
);

server.registerResource(
  "note",
  new ResourceTemplate("notes://{id}", { list: undefined }),
  { description: "One note as JSON.", mimeType: "application/json" },
  async (uri, { id }) => ({
    contents: [
      {
        uri: uri.href,
        mimeType: "application/json",
        text: JSON.stringify(notes.find((n) => n.id === Number(id)) ?? null),
      },
    ],
  }),
);

server.registerPrompt(
  "summarise",
  { description: "Summarise the notes with a tag.", argsSchema: { tag: z.string() } },
  ({ tag }) => ({
    messages: [
      {
        role: "user",
        content: {
          type: "text",
          text: `Summarise these notes: ${JSON.stringify(notes.filter((n) => n.tags.includes(tag)))}`,
        },
      },
    ],
  }),
);

await server.connect(new StdioServerTransport());
