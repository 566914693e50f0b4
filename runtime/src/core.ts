/**
 * The one file behind `@mcpgen/runtime/stdio`, `/facades` and `/abi/v8` (runtime/package.json
 * points all three there; each keeps its own declarations). A stdio server imports all three
 * before its first message, and on Node 20 every module file and every bare specifier resolved
 * costs start-up time (docs/bundling.md): one file instead of three entry files plus the chunk
 * they share. `./abi/v8`'s names are abi/v8.ts's, but its `legacyEra` lacks the era's HTTP side
 * (abi/legacy-era-core.ts), so a stdio program's bundle carries no HTTP code.
 */
export * from "./stdio.js";
export * from "./facades.js";
export * from "./abi.js";
export { legacyEra } from "./abi/legacy-era-core.js";
// The server features a generated server hands to createMcpServerWith when its manifest uses them
// (server/features.ts): not named by a manifest, not in its bundle.
export { createMcpServerWith } from "./server/create-server.js";
export { PromptTable as servePrompts } from "./server/prompts.js";
export { ResourceRouter as serveResources } from "./server/resources.js";
export { complete as serveCompletion } from "./server/completion.js";
export { LocalBroadcast as serveChanges } from "./server/broadcast.js";
export { serveInputs } from "./server/serve-inputs.js";
export { serveToolHeaders } from "./server/serve-tool-headers.js";
