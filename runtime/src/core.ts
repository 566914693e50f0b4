/**
 * The one file behind `@mcpgen/runtime/stdio`, `/facades` and `/abi/v8` (runtime/package.json
 * points all three there; each keeps its own declarations). A stdio server imports all three
 * before its first message, and on Node 20 every module file and every bare specifier resolved
 * costs start-up time (docs/bundling.md): one file instead of three entry files plus the chunk
 * they share.
 */
export * from "./stdio.js";
export * from "./facades.js";
export * from "./abi/v8.js";
