// The notes server, code first: these typed handlers are the source of truth; `mcpgen generate
// --from` derives mcp.manifest.json from them and generates the typed server and client.
export interface Note {
  id: number;
  title: string;
  body: string;
  tags: string[];
}
const notes: Note[] = [];

export const tools = {
  /** Store a note and return it. */
  addNote(input: { title: string; body: string; tags?: string[]; source?: { app: string; url?: string } }): Note {
    const note = { id: notes.length + 1, title: input.title, body: input.body, tags: input.tags ?? [] };
    notes.push(note);
    return note;
  },
  /** Notes with a tag, newest first. @readOnly */
  searchNotes({ tag, limit = 10 }: { tag?: string; limit?: number }): { notes: Note[]; total: number } {
    const found = notes.filter((n) => tag === undefined || n.tags.includes(tag)).reverse();
    return { notes: found.slice(0, limit), total: found.length };
  },
};

export const resources = {
  /** One note as JSON. @uri notes://{id} @mimeType application/json */
  note: ({ id }: { id: string }) => JSON.stringify(notes.find((n) => n.id === Number(id)) ?? null),
};

export const prompts = {
  /** Summarise the notes with a tag. */
  summarise: ({ tag }: { tag: string }) =>
    `Summarise these notes: ${JSON.stringify(notes.filter((n) => n.tags.includes(tag)))}`,
};
