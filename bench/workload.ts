/**
 * The one workload every implementation runs: a tool `add` taking {a:number, b:number}.
 * "text" answers with a text content block; "structured" also declares an outputSchema and
 * returns structuredContent, so validating implementations check the result shape too.
 */

export type Variant = "text" | "structured";
export const VARIANTS: readonly Variant[] = ["text", "structured"];

export type TransportKind = "inproc" | "stdio" | "http";
export const TRANSPORTS: readonly TransportKind[] = ["inproc", "stdio", "http"];

/**
 * `rawobj`: the raw pair without JSON (objects by reference); `rawval`: the same pair running the
 * validators mcpgen's pair runs per call. Both in process only. `mcpgen-legacy`: mcpgen with the
 * client offering 2025-11-25 only (the server keeps its default revisions), so the legacy era's
 * stdio path is measured in the same run as the 2026-07-28 one; stdio only. `raw26`: the raw
 * NDJSON pair sending the bytes of the 2026-07-28 era (the request `_meta` mcpgen's client sends,
 * the result's `resultType` and `_meta` as mcpgen's server answers), so a 2026-07-28 ratio can
 * tell the implementation's cost from the protocol's message size; stdio only.
 */
export type ImplName = "raw" | "rawobj" | "rawval" | "sdk1" | "sdk2" | "mcpgen" | "mcpgen-legacy" | "raw26";
export const IMPLS: readonly ImplName[] = [
  "raw",
  "rawobj",
  "rawval",
  "sdk1",
  "sdk2",
  "mcpgen",
  "mcpgen-legacy",
  "raw26",
];

/** Whether an implementation runs over a transport (the object pairs have no wire to run over). */
export function implRuns(impl: ImplName, transport: TransportKind | "spawn"): boolean {
  if (impl === "mcpgen-legacy") return transport === "stdio" || transport === "spawn";
  if (impl === "raw26") return transport === "stdio";
  return (impl !== "rawobj" && impl !== "rawval") || transport === "inproc";
}

export const PROTOCOL_VERSION = "2025-11-25";
export const SERVER_INFO = { name: "bench-add", version: "1.0.0" } as const;
export const CLIENT_INFO = { name: "bench-client", version: "1.0.0" } as const;

/** The `_meta` of every 2026-07-28 request mcpgen's bench client sends (no capabilities declared). */
export const MODERN_REQUEST_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
} as const;

/** The serverInfo of mcpgen's bench server (bench/add/<variant>.manifest.json), in every 2026-07-28 result's `_meta`. */
export function modernServerInfo(variant: Variant): Record<string, string> {
  const description =
    variant === "structured"
      ? "The bench workload: one tool that adds two numbers and answers with structured output"
      : "The bench workload: one tool that adds two numbers and answers with a text block";
  return { ...SERVER_INFO, description };
}

export const ADD_INPUT_SCHEMA = {
  type: "object",
  properties: { a: { type: "number" }, b: { type: "number" } },
  required: ["a", "b"],
} as const;

export const ADD_OUTPUT_SCHEMA = {
  type: "object",
  properties: { sum: { type: "number" } },
  required: ["sum"],
} as const;

/** The tool as tools/list advertises it. */
export function addToolDefinition(variant: Variant): Record<string, unknown> {
  const tool: Record<string, unknown> = { name: "add", description: "Add two numbers", inputSchema: ADD_INPUT_SCHEMA };
  if (variant === "structured") tool.outputSchema = ADD_OUTPUT_SCHEMA;
  return tool;
}

export interface AddResult {
  content: { type: "text"; text: string }[];
  structuredContent?: { sum: number };
  [key: string]: unknown;
}

/** What the tool handler returns for a given variant (shared by the raw and hand-wired servers). */
export function addResult(variant: Variant, a: number, b: number): AddResult {
  const sum = a + b;
  return variant === "structured"
    ? { content: [{ type: "text", text: String(sum) }], structuredContent: { sum } }
    : { content: [{ type: "text", text: String(sum) }] };
}

/**
 * Reads the sum back out of a tools/call result, so every client does the same small amount of
 * work per call and a broken implementation fails loudly instead of measuring fast garbage.
 */
export function sumOf(result: unknown, variant: Variant): number {
  const r = result as AddResult;
  if (variant === "structured") {
    const sc = r.structuredContent;
    if (!sc || typeof sc.sum !== "number") throw new Error(`bad structured result: ${JSON.stringify(result)}`);
    return sc.sum;
  }
  const first = r.content?.[0];
  if (!first || first.type !== "text") throw new Error(`bad text result: ${JSON.stringify(result)}`);
  return Number(first.text);
}

export function parseVariant(s: string | undefined): Variant {
  if (s === "text" || s === "structured") return s;
  throw new Error(`variant must be "text" or "structured", got ${JSON.stringify(s)}`);
}
