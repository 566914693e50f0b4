/**
 * `@mcpgen/runtime/stdio`: NDJSON framing and the stdio transports. A separate entry point so a
 * stdio server loads none of the HTTP stack.
 */
export { NdjsonDecoder, encodeNdjson, DEFAULT_MAX_MESSAGE_BYTES } from "./framing/ndjson.js";
export {
  OutlineScanner,
  outlineOf,
  exceedsDepth,
  textExceedsDepth,
  type MessageOutline,
  type MessageKind,
} from "./framing/scan.js";
export { NdjsonStreamTransport, type NdjsonStreamOptions } from "./transports/ndjson-stream.js";
export { StdioServerTransport, type StdioServerTransportOptions } from "./transports/stdio-server.js";
export { StdioClientTransport, type StdioClientTransportOptions, type ChildExit } from "./transports/stdio-client.js";
