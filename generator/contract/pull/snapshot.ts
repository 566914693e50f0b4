/**
 * What `pull` reads from a live server: identity, the revisions it accepts, capabilities, and
 * every tool, prompt, resource and template (the runtime's client follows pagination and
 * refuses a server that repeats cursors). Only lists the server's capabilities announce are
 * asked for; one of those answered -32601 (Method not found) is taken as empty and noted. The
 * client keeps entries with schema defects (noted) and drops those it cannot use (noted).
 */
import type { McpClient } from "@mcpgen/runtime";
import { McpgenError } from "../../errors.js";
import { clientBindings, connect, withDeadline, type ConnectOptions } from "../connect.js";

/** A list longer than this is not a server's interface but a runaway (bounded like every untrusted count). */
const MAX_ENTRIES = 10_000;

export interface ServerSnapshot {
  serverInfo: { [key: string]: unknown };
  instructions: string | undefined;
  /** Revisions the server accepted, newest first. */
  revisions: string[];
  capabilities: { [key: string]: unknown };
  tools: { [key: string]: unknown }[];
  prompts: { [key: string]: unknown }[];
  resources: { [key: string]: unknown }[];
  resourceTemplates: { [key: string]: unknown }[];
  /** How many entries each list had as the server sent them, dropped ones included (absent: as many as held). */
  listed?: { [S in Section]: number };
  /** What a list gave that the snapshot does not hold as sent: an unanswered list, a dropped or defective entry. */
  listNotes?: ListNote[];
}

export type Section = "tools" | "prompts" | "resources" | "resourceTemplates";

export interface ListNote {
  section: Section;
  message: string;
  /** The entry's name, when the note is about one entry that has one. */
  entryName?: string;
  /** The entry is in the list despite its defect. */
  kept?: boolean;
}

/** JSON-RPC Method not found. */
const METHOD_NOT_FOUND = -32601;

async function listAll(client: McpClient, caps: { [key: string]: unknown }) {
  const listed = { tools: 0, prompts: 0, resources: 0, resourceTemplates: 0 };
  const listNotes: ListNote[] = [];
  const list = async (section: Section, method: string, capability: string, read: () => Promise<unknown[]>) => {
    if (!caps[capability]) return [];
    let entries: unknown[];
    try {
      entries = await read();
    } catch (e) {
      // Servers announce a capability for one of its lists and leave the other unimplemented.
      if ((e as { code?: unknown }).code !== METHOD_NOT_FOUND) throw e;
      listNotes.push({
        section,
        message: `${method}: the server announces ${capability} but answered -32601 (${(e as Error).message}); no ${section} pulled`,
      });
      return [];
    }
    if (entries.length > MAX_ENTRIES) throw new Error(`${method}: more than ${MAX_ENTRIES} entries`);
    for (const p of client.listProblems)
      listNotes.push({
        section,
        message: p.message,
        kept: p.kept,
        ...(p.entryName === undefined ? {} : { entryName: p.entryName }),
      });
    listed[section] = entries.length + client.listProblems.filter((p) => !p.kept).length;
    return entries as { [key: string]: unknown }[];
  };
  return {
    tools: await list("tools", "tools/list", "tools", () => client.listTools()),
    prompts: await list("prompts", "prompts/list", "prompts", () => client.listPrompts()),
    resources: await list("resources", "resources/list", "resources", () => client.listResources()),
    resourceTemplates: await list("resourceTemplates", "resources/templates/list", "resources", () =>
      client.listResourceTemplates(),
    ),
    listed,
    listNotes,
  };
}

/**
 * A server's skills (Skills extension) are not pulled: their files are not in `tools/list` and the
 * like, and a manifest declares them under `skills` from folders. Their SKILL.md files, which
 * `resources/list` lists too, are left out of the pulled resources, with a note.
 */
async function leaveOutSkills(
  client: McpClient,
  lists: { resources: { [key: string]: unknown }[]; listNotes: ListNote[] },
): Promise<void> {
  const { SkillsClient } = await import("@mcpgen/runtime/skills/client");
  const skills = new SkillsClient(client);
  if (!skills.declared) return;
  const uris = new Set((await skills.list()).map((s) => s.uri));
  const before = lists.resources.length;
  lists.resources = lists.resources.filter((r) => !uris.has(r.uri as string));
  lists.listNotes.push({
    section: "resources",
    message: `the server publishes ${uris.size} skill(s) (Skills extension), not pulled: their ${before - lists.resources.length} SKILL.md resource(s) are left out; declare the skills under "skills"`,
    kept: false,
  });
}

/**
 * Connects, lists everything, then asks once per older revision the client knows whether the
 * server accepts it (a fresh connection each, since a session speaks one revision).
 */
export async function takeSnapshot(
  options: ConnectOptions,
  log: (line: string) => void = () => {},
): Promise<ServerSnapshot> {
  const conn = await connect(options);
  const timeout = options.timeoutMs ?? 10_000;
  let snapshot: ServerSnapshot;
  try {
    const caps = conn.client.serverCapabilities as { [key: string]: unknown };
    // Four lists of at most 10,000 pages each are bounded by the per-request timeout; the whole listing by this.
    const lists = await withDeadline(
      listAll(conn.client, caps),
      timeout * 20,
      `listing of ${conn.target} not finished`,
    );
    await leaveOutSkills(conn.client, lists);
    snapshot = {
      serverInfo: { ...(conn.client.serverInfo as unknown as { [key: string]: unknown }) },
      instructions: conn.client.instructions,
      revisions: [conn.client.protocolVersion],
      capabilities: caps,
      ...lists,
    };
  } catch (e) {
    const said = conn.stderr().trim()
      ? ` (server stderr: ${conn.stderr().trim().split("\n").slice(-5).join(" | ")})`
      : "";
    throw new McpgenError(`${conn.target}: ${e instanceof Error ? e.message : String(e)}${said}`);
  } finally {
    await conn.close();
  }
  for (const b of [...clientBindings].reverse()) {
    if (snapshot.revisions.includes(b.revision) || b.revision > snapshot.revisions[0]!) continue;
    const probe = await connect({ ...options, protocolVersion: b.revision }).catch(() => undefined);
    if (!probe) {
      log(`${b.revision}: not accepted`);
      continue;
    }
    if (probe.client.protocolVersion === b.revision) snapshot.revisions.push(b.revision);
    await probe.close();
  }
  snapshot.revisions.sort().reverse();
  return snapshot;
}
