/**
 * Asking the client for input in 2026-07-28 (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr):
 * the input rounds of a run, the signed `requestState`, answers checked where they are read and
 * `ctx.client`. A server feature (features.ts) the generated server hands over as an import thunk
 * unless its manifest says its handlers ask the client nothing (`clientRequests: []`) and no tool
 * may run as a task; the server loads it before its first 2026-07-28 connection.
 */
export { RequestStateCodec } from "../lifecycle/modern/request-state.js";
export { INPUT_METHODS, InputRound, inputRequired, retryInput } from "../lifecycle/modern/mrtr.js";
export { InputClient } from "./input-client.js";
export { withInput } from "./input-run.js";
