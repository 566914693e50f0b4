/**
 * How `pull` and `verify` reach a running server: the runtime's public generic client
 * (`connectMcpClient`) over its stdio or HTTP transport (`connectHttp`: Streamable HTTP with the
 * HTTP+SSE fallback), with every binding mcpgen ships. That client is dual-era: it probes with
 * `server/discover` and stays on 2026-07-28 when the server speaks it, else falls back to the
 * `initialize` handshake (2024-11-05 ... 2025-11-25). Asking for a legacy revision by name
 * (`protocolVersion`) skips the probe.
 *
 * Every wait is bounded: a per-request timeout on the session (the probe gets the same limit),
 * and a deadline on the whole handshake that closes the transport (and so ends a silent child).
 * No era is remembered between connections, so every run probes afresh and reports the same.
 */
import { connectMcpClient, type McpClient, type ProtocolBinding, type Transport } from "@mcpgen/runtime";
import { connectHttp } from "@mcpgen/runtime/http";
import { StdioClientTransport } from "@mcpgen/runtime/stdio";
import { withSkillMethods } from "@mcpgen/runtime/skills/client";
import { binding as b20241105 } from "@mcpgen/runtime/protocol/2024-11-05";
import { binding as b20250326 } from "@mcpgen/runtime/protocol/2025-03-26";
import { binding as b20250618 } from "@mcpgen/runtime/protocol/2025-06-18";
import { binding as b20251125 } from "@mcpgen/runtime/protocol/2025-11-25";
import { binding as b20260728 } from "@mcpgen/runtime/protocol/2026-07-28";
import { McpgenError, usageError } from "../errors.js";
import { mcpgenVersion } from "../paths.js";

/** Every binding, oldest first: the client probes for 2026-07-28, else offers the newest legacy one and accepts any of them. */
export const clientBindings: readonly ProtocolBinding[] = [b20241105, b20250326, b20250618, b20251125, b20260728];

/** The revision whose lifecycle has no `initialize` (the era probe looks for it). */
export const MODERN_REVISION = b20260728.revision;

const DEFAULT_TIMEOUT_MS = 10_000;
/** Cap on the captured stderr of a --stdio child (shown when it fails). */
const MAX_STDERR_CHARS = 4000;

export interface ConnectOptions {
  stdio?: string;
  url?: string;
  /** `Name: value` strings. */
  headers?: string[];
  /** `KEY=VALUE` strings for the child. */
  env?: string[];
  /** Per-request limit (default 10 s). */
  timeoutMs?: number;
  /** Revision to ask for (the server may answer with another it speaks). */
  protocolVersion?: string;
}

export interface Connection {
  client: McpClient;
  /** How the server was reached, for reports (`stdio: node server.js`, `http: <url>`). */
  target: string;
  stderr(): string;
  close(): Promise<void>;
}

/** Splits a command line into words: whitespace separates, single or double quotes group, backslash escapes. No shell. */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let cur = "";
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === "\\" && quote === '"' && i + 1 < line.length) cur += line[++i];
      else cur += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === "\\" && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(cur);
      cur = "";
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (quote) throw usageError(`--stdio: unterminated ${quote} quote in ${JSON.stringify(line)}`);
  if (inWord) words.push(cur);
  if (words.length === 0) throw usageError("--stdio needs a command");
  return words;
}

function parsePairs(list: string[], sep: string, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list) {
    const i = item.indexOf(sep);
    if (i <= 0)
      throw usageError(
        `--${flag} ${JSON.stringify(item)}: expected ${flag === "header" ? "Name: value" : "KEY=VALUE"}`,
      );
    out[item.slice(0, i).trim()] = item.slice(i + 1).trim();
  }
  return out;
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export async function connect(options: ConnectOptions): Promise<Connection> {
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let transport: Transport;
  let target: string;
  let err = "";
  if (options.stdio !== undefined) {
    const [command, ...args] = splitCommand(options.stdio);
    const stdio = new StdioClientTransport({
      command: command!,
      args,
      env: { ...process.env, ...parsePairs(options.env ?? [], "=", "env") },
      stderr: "pipe",
      closeTimeoutMs: 500,
      termTimeoutMs: 1000,
    });
    stdio.stderr!.on("data", (d: Buffer) => void (err = (err + d.toString("utf8")).slice(-MAX_STDERR_CHARS)));
    transport = stdio;
    target = `stdio: ${options.stdio}`;
  } else if (options.url !== undefined) {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw usageError(`--url ${JSON.stringify(options.url)} is not a URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw usageError(`--url must be http: or https:, got ${url.protocol}`);
    transport = connectHttp(url, { headers: parsePairs(options.headers ?? [], ":", "header") });
    target = `http: ${url.href}`;
  } else {
    throw usageError('give --stdio "<command>" or --url <url>');
  }
  // Why the 2026-07-28 probe did not stick, for the message when the legacy handshake fails too.
  let probe = "";
  try {
    const client = await withDeadline(
      connectMcpClient(transport, {
        // The Skills extension's methods too, so pull can tell a server's skills from its resources.
        bindings: clientBindings.map(withSkillMethods),
        clientInfo: { name: "mcpgen", version: mcpgenVersion },
        timeout,
        probeTimeout: timeout,
        eraCache: false,
        ...(options.protocolVersion === undefined ? {} : { protocolVersion: options.protocolVersion }),
        // Garbage from the peer surfaces as the request that never gets its answer; only the
        // probe's fallback is worth keeping.
        onerror: (e) => {
          if (e.message.startsWith("2026-07-28 probe answered "))
            probe = e.message.replace(/^2026-07-28 probe answered /, "").replace(/; falling back to initialize$/, "");
        },
      }),
      // the probe and then initialize, each bounded by `timeout`, plus slack for spawning
      timeout * 3,
      `no MCP handshake with ${target}`,
    );
    return {
      client,
      target,
      stderr: () => err,
      close: async () => {
        await client.close().catch(() => {});
        await transport.close().catch(() => {});
      },
    };
  } catch (e) {
    await transport.close().catch(() => {});
    const said = err.trim() ? ` (server stderr: ${err.trim().split("\n").slice(-5).join(" | ")})` : "";
    const probed = probe ? ` (the ${MODERN_REVISION} probe before it: ${probe})` : "";
    throw new McpgenError(`cannot connect to ${target}: ${describe(e)}${probed}${said}`);
  }
}

/** Rejects with `what` after `ms`; the caller closes what it opened. */
export function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}
