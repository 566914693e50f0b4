/**
 * The raw baseline server: plain JSON-RPC over whatever carries strings, no validation, no
 * framework. It answers exactly what the workload needs, as a hand-written MCP server would.
 */
import {
  PROTOCOL_VERSION,
  SERVER_INFO,
  addResult,
  addToolDefinition,
  modernServerInfo,
  type Variant,
} from "../workload.js";

export interface Incoming {
  id?: string | number;
  method?: string;
  params?: { name?: string; arguments?: { a: number; b: number } };
}

/**
 * The same server answering as mcpgen's 2026-07-28 server does (https://modelcontextprotocol.io/specification/2026-07-28/basic/index):
 * `server/discover`, and results completed with `resultType` and the serverInfo `_meta` (tools/list
 * with its caching hints), byte for byte; the request `_meta` is not read.
 */
export function createModernRawHandler(variant: Variant): (msg: Incoming) => object | undefined {
  const meta = { "io.modelcontextprotocol/serverInfo": modernServerInfo(variant) };
  const tools = {
    tools: [addToolDefinition(variant)],
    resultType: "complete",
    _meta: meta,
    ttlMs: 60000,
    cacheScope: "public",
  };
  return (msg) => {
    if (msg.id === undefined) return undefined;
    switch (msg.method) {
      case "tools/call": {
        const args = msg.params!.arguments!;
        const result: Record<string, unknown> = addResult(variant, args.a, args.b);
        result.resultType = "complete";
        result._meta = meta;
        return { jsonrpc: "2.0", id: msg.id, result };
      }
      case "server/discover":
        return {
          jsonrpc: "2.0",
          id: msg.id,
          result: {
            supportedVersions: ["2026-07-28"],
            capabilities: { tools: {} },
            resultType: "complete",
            _meta: meta,
          },
        };
      case "tools/list":
        return { jsonrpc: "2.0", id: msg.id, result: tools };
      default:
        return { jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } };
    }
  };
}

/** Handles one parsed message; returns the response object, or undefined for notifications. */
export function createRawHandler(variant: Variant): (msg: Incoming) => object | undefined {
  const tools = { tools: [addToolDefinition(variant)] };
  return (msg) => {
    if (msg.id === undefined) return undefined;
    switch (msg.method) {
      case "tools/call": {
        const args = msg.params!.arguments!;
        return { jsonrpc: "2.0", id: msg.id, result: addResult(variant, args.a, args.b) };
      }
      case "initialize":
        return {
          jsonrpc: "2.0",
          id: msg.id,
          result: { protocolVersion: PROTOCOL_VERSION, capabilities: { tools: {} }, serverInfo: SERVER_INFO },
        };
      case "tools/list":
        return { jsonrpc: "2.0", id: msg.id, result: tools };
      case "ping":
        return { jsonrpc: "2.0", id: msg.id, result: {} };
      default:
        return { jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } };
    }
  };
}
