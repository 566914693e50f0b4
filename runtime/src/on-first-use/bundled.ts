/**
 * `#on-first-use` under the workerd, worker and browser conditions (what a user's bundler reads):
 * the same loaders as node.ts over static imports. A bundle is one
 * file anyway, and a dynamic import in it only has the bundler wrap every module the imported one
 * reaches in lazy-init glue (0.7 kB gzip of a one-tool 2026-07-28 Worker); what the bundle never
 * calls (a server's `createMcpClient`) it drops whole.
 */
import * as modernPath from "../server/modern-path.js";
import * as inputs from "../server/inputs.js";
import * as toolHeaders from "../server/header-params.js";
import * as manifestClient from "../client/manifest-client.js";
import * as apps from "../client/apps.js";
import type { InputsModule, ToolHeadersModule } from "../server/features.js";

export const loadModernPath = (): Promise<typeof modernPath> => Promise.resolve(modernPath);
export const serveInputs = (): Promise<InputsModule> => Promise.resolve(inputs);
export const serveToolHeaders = (): Promise<ToolHeadersModule> => Promise.resolve(toolHeaders);
export const loadManifestClient = (): Promise<typeof manifestClient> => Promise.resolve(manifestClient);
export const loadApps = (): Promise<typeof apps> => Promise.resolve(apps);
