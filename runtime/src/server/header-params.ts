/**
 * Server-side check of `Mcp-Param-*` headers
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#custom-headers-from-tool-parameters):
 * every tool argument annotated `x-mcp-header` is mirrored in its header when present and non-null,
 * and the header says the same (base64 sentinel decoded; integers compared numerically). A header
 * for an argument the body lacks, a missing header, or a malformed value is `-32020` (HTTP 400).
 * A server feature (features.ts): the generated server hands it over only when a tool's input
 * schema mentions `x-mcp-header` (features.ts, mirrorsHeaders), so a server whose tools mirror nothing carries
 * none of this, nor the annotation scan of wire.ts.
 */
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import { Header, argumentAt, decodeHeaderValue, headerParams, type HeaderParam } from "../lifecycle/modern/wire.js";
import type { PublishedLists } from "./types.js";

export type ToolHeaders = readonly HeaderParam[];

type Headers = Readonly<Record<string, string | string[] | undefined>>;

function mismatch(message: string, header: string): McpError {
  return new McpError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`, { header });
}

function sameValue(decoded: string, value: unknown, type: HeaderParam["type"]): boolean {
  if (type === "integer") {
    if (typeof value !== "number" || !/^[+-]?\d+$/.test(decoded)) return false;
    return Number(decoded) === value;
  }
  if (type === "boolean") return (decoded === "true" && value === true) || (decoded === "false" && value === false);
  return typeof value === "string" && decoded === value;
}

function checkHeaderParams(params: ToolHeaders, args: unknown, headers: Headers): void {
  for (const p of params) {
    const name = `${Header.paramPrefix}${p.header.toLowerCase()}`;
    const raw = headers[name];
    const received = Array.isArray(raw) ? raw.join(", ") : raw;
    const value = argumentAt(args, p.path);
    const display = `Mcp-Param-${p.header}`;
    if (value === undefined) {
      if (received !== undefined)
        throw mismatch(`${display} is present but arguments/${p.path.join("/")} is absent`, display);
      continue;
    }
    if (received === undefined)
      throw mismatch(`${display} is required: arguments/${p.path.join("/")} is present`, display);
    const decoded = decodeHeaderValue(received);
    if (decoded === undefined) throw mismatch(`${display} is not a valid header value`, display);
    if (!sameValue(decoded, value, p.type))
      throw mismatch(`${display} does not match arguments/${p.path.join("/")}`, display);
  }
}

/** Each definition's mirrors by revision and tool, read off its published input schemas on a tool's first call. */
const mirrors = new WeakMap<object, Map<string, ToolHeaders>>();

/** The `Mcp-Param-*` mirrors of a tool in `revision` (a tool with invalid annotations mirrors none, which is reported once). */
function mirrorsOf(server: HeaderCheckServer, revision: string, tool: string): ToolHeaders {
  const published = server.definition.published;
  let cache = mirrors.get(published);
  if (cache === undefined) mirrors.set(published, (cache = new Map()));
  const key = `${revision}\u0000${tool}`;
  let found = cache.get(key);
  if (found === undefined) {
    const entry = published[revision]?.tools.find((t) => t.name === tool);
    const r = headerParams(entry?.inputSchema);
    found = "params" in r ? r.params : [];
    if ("problem" in r)
      server.report(new Error(`tool ${JSON.stringify(tool)}: ${r.problem}; its x-mcp-header annotations are ignored`));
    cache.set(key, found);
  }
  return found;
}

/** What the check reads of the server (ServerCore). */
interface HeaderCheckServer {
  readonly definition: { readonly published: { readonly [revision: string]: PublishedLists } };
  readonly report: (e: Error) => void;
}

/** Throws the `-32020` McpError when a 2026-07-28 `tools/call`'s headers do not mirror its arguments. */
export function checkToolHeaders(
  server: HeaderCheckServer,
  revision: string,
  tool: string,
  args: unknown,
  headers: Headers,
): void {
  checkHeaderParams(mirrorsOf(server, revision, tool), args, headers);
}
