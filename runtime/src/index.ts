export type * from "./jsonrpc.js";
export { ErrorCode } from "./jsonrpc.js";
export type * from "./transport.js";
export type { ProtocolBinding, MethodInfo, MethodTable, Validator, ValidationIssue, Era, Side } from "./abi.js";


// Framing and the stdio / Streamable HTTP / HTTP+SSE transports.
export * from "./transports/index.js";
