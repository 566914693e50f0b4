export type * from "./ir.js";
export { buildModel, type BuildOptions } from "./build.js";
export { readOverlay, overlayFile, type MethodOverlay, type OverlayMethod } from "./overlay.js";
