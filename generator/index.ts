/**
 * The programmatic API of the `mcpgen` package (its "." export). The CLI is a thin layer over the
 * same functions: `generate`/`check` (with the same config lookup and targets), the manifest
 * loader, `initProject`, `watchGenerate`, and `defineConfig` for a typed `mcpgen.config.ts`.
 */
export { generate, check } from "./generate.js";
export type { GenerateOptions, GenerateResult, CheckResult, TargetResult } from "./generate.js";
export type { OutputDiff } from "./write/compare.js";
export {
  resolveTargets,
  loadConfig,
  configFileNames,
  type McpgenConfig,
  type ConfigTarget,
  type DeployTarget,
  type Target,
  type TargetOptions,
} from "./config.js";
export { loadManifest, parseManifest, manifestSchemaPath, type LoadedManifest } from "./load/manifest.js";
export type {
  Manifest,
  ManifestTool,
  ManifestResource,
  ManifestResourceTemplate,
  ManifestPrompt,
  ManifestPromptArgument,
  ManifestCapabilities,
  ManifestIcon,
  Revision,
} from "./load/manifest-format.js";
export { KNOWN_REVISIONS } from "./load/manifest-format.js";
export { bundledRevisions } from "./load/schema-manifest.js";
export { McpgenError, type McpgenErrorDetails, type ExitCode } from "./errors.js";
export { InputError, formatDiagnostic, formatWarning, type Diagnostic, type Severity } from "./load/diagnostics.js";
export { initProject, InitRefusal, type InitOptions, type InitResult } from "./init.js";
export { watchGenerate, type WatchOptions, type WatchEvent } from "./watch.js";
export { mcpgenVersion } from "./paths.js";

import type { McpgenConfig } from "./config.js";

/** Types a `mcpgen.config.ts`: `export default defineConfig({ manifest: "mcp.manifest.json", out: "src/mcp" })`. */
export function defineConfig(config: McpgenConfig): McpgenConfig {
  return config;
}
