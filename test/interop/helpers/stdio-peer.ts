/**
 * Spawning MCP servers as real child processes for the interop tests, connected to our generic
 * client over stdio. Every wait is bounded: per-request timeout on the session, and a short
 * close -> SIGTERM -> SIGKILL escalation so no child outlives its test.
 */
import { fileURLToPath } from "node:url";
import { connectMcpClient, type McpClient, type McpClientOptions } from "@mcpgen/runtime";
import { StdioClientTransport } from "@mcpgen/runtime/stdio";

/** The worktree root, from dist/test/interop/helpers/. */
export const root = (rel: string): string => fileURLToPath(new URL(`../../../../${rel}`, import.meta.url));

export const fixture = (name: string): string => root(`test/fixtures/${name}`);

/** Bounds every request (and the handshake): a hang fails the test instead of stalling it. */
export const REQUEST_TIMEOUT_MS = 5000;

export interface Spawned {
  client: McpClient;
  transport: StdioClientTransport;
  /** The child's stderr so far, for failure messages. */
  stderr(): string;
  close(): Promise<void>;
}

export async function spawnClient(args: readonly string[], options: McpClientOptions): Promise<Spawned> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    stderr: "pipe",
    // Some servers (server-everything) ignore stdin EOF; don't wait the default 2 s for them.
    closeTimeoutMs: 300,
    termTimeoutMs: 1000,
  });
  let err = "";
  transport.stderr!.on("data", (d: Buffer) => void (err = (err + d.toString("utf8")).slice(-4000)));
  let client: McpClient;
  try {
    client = await connectMcpClient(transport, { timeout: REQUEST_TIMEOUT_MS, ...options });
  } catch (e) {
    await transport.close();
    // Keep the error's class (tests assert on it); add what the child said.
    if (e instanceof Error && err !== "") e.message += `\n(stderr of ${args.join(" ")}: ${err.trim()})`;
    throw e;
  }
  return {
    client,
    transport,
    stderr: () => err,
    close: async () => {
      await client.close();
      await transport.close();
    },
  };
}
