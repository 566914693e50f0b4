/**
 * Server-side check of `Mcp-Param-*` headers
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#custom-headers-from-tool-parameters):
 * every tool argument annotated `x-mcp-header` is mirrored in its header when present and non-null,
 * and the header says the same (base64 sentinel decoded; integers compared numerically). A header
 * for an argument the body lacks, a missing header, or a malformed value is `-32020` (HTTP 400).
 */
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import { Header, argumentAt, decodeHeaderValue, type HeaderParam } from "../lifecycle/modern/wire.js";

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

export function checkHeaderParams(params: ToolHeaders, args: unknown, headers: Headers): void {
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
