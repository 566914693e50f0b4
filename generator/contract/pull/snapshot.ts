/**
 * What `pull` reads from a live server: identity, the revisions it accepts, capabilities, and
 * every tool, prompt, resource and template (the runtime's client follows pagination and
 * refuses a server that repeats cursors). Only lists the server's capabilities announce are
 * asked for.
 */
import type { McpClient } from "@mcpgen/runtime";
import { McpgenError } from "../../errors.js";
import { clientBindings, connect, withDeadline, type ConnectOptions } from "../connect.js";

/** A list longer than this is not a server's interface but a runaway (bounded like every untrusted count). */
export const MAX_ENTRIES = 10_000;

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
}

async function listAll(client: McpClient, caps: { [key: string]: unknown }) {
  const bounded = <T>(what: string, list: T[]): T[] => {
    if (list.length > MAX_ENTRIES) throw new Error(`${what}: more than ${MAX_ENTRIES} entries`);
    return list;
  };
  const asRecords = (l: unknown[]) => l as { [key: string]: unknown }[];
  return {
    tools: caps.tools ? asRecords(bounded("tools/list", await client.listTools())) : [],
    prompts: caps.prompts ? asRecords(bounded("prompts/list", await client.listPrompts())) : [],
    resources: caps.resources ? asRecords(bounded("resources/list", await client.listResources())) : [],
    resourceTemplates: caps.resources ? asRecords(bounded("resources/templates/list", await client.listResourceTemplates())) : [],
  };
}

/**
 * Connects, lists everything, then asks once per older revision the client knows whether the
 * server accepts it (a fresh connection each, since a session speaks one revision).
 */
export async function takeSnapshot(options: ConnectOptions, log: (line: string) => void = () => {}): Promise<ServerSnapshot> {
  const conn = await connect(options);
  const timeout = options.timeoutMs ?? 10_000;
  let snapshot: ServerSnapshot;
  try {
    const caps = conn.client.serverCapabilities as { [key: string]: unknown };
    // Four lists of at most 10,000 pages each are bounded by the per-request timeout; the whole listing by this.
    const lists = await withDeadline(listAll(conn.client, caps), timeout * 20, `listing of ${conn.target} not finished`);
    snapshot = {
      serverInfo: { ...(conn.client.serverInfo as unknown as { [key: string]: unknown }) },
      instructions: conn.client.instructions,
      revisions: [conn.client.protocolVersion],
      capabilities: caps,
      ...lists,
    };
  } catch (e) {
    const said = conn.stderr().trim() ? ` (server stderr: ${conn.stderr().trim().split("\n").slice(-5).join(" | ")})` : "";
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
