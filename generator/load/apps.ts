/**
 * MCP Apps (`io.modelcontextprotocol/ui`, https://github.com/modelcontextprotocol/ext-apps): a
 * tool names the `ui://` resource that renders it in `_meta.ui.resourceUri`, and that resource is
 * an HTML document served as `text/html;profile=mcp-app`. Checked here: every link names a
 * declared `ui://` resource, every `ui://` resource carries the profile, visibility values. Also
 * the resources served from a file (`file`, mcpgen's own key): read here, embedded by the
 * generator and served without a handler.
 */
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { Diagnostic } from "./diagnostics.js";
import { isPlainObject } from "../json-schema/walk.js";

type Problem = Omit<Diagnostic, "file">;

export const APPS_EXTENSION = "io.modelcontextprotocol/ui";
const APP_MIME = "text/html;profile=mcp-app";
/** Largest file a resource's `file` may name: it is embedded in the generated server. */
const MAX_RESOURCE_FILE_BYTES = 4 * 1024 * 1024;
const VISIBILITY = new Set(["model", "app"]);

/** The `ui://` resource a tool links (`_meta.ui.resourceUri`, or the deprecated flat `_meta["ui/resourceUri"]`). */
export function toolUiUri(tool: { [key: string]: unknown }): { uri: unknown; pointer: string } | undefined {
  const meta = tool._meta;
  if (!isPlainObject(meta)) return undefined;
  if (isPlainObject(meta.ui) && "resourceUri" in meta.ui)
    return { uri: meta.ui.resourceUri, pointer: "/_meta/ui/resourceUri" };
  if ("ui/resourceUri" in meta) return { uri: meta["ui/resourceUri"], pointer: "/_meta/ui~1resourceUri" };
  return undefined;
}

/** Resource content read from `file`, by the resource's index in `resources`. */
export type ResourceFiles = Map<number, string>;

export function checkApps(
  manifest: { [key: string]: unknown },
  baseDir: string,
  readFiles = true,
): { problems: Problem[]; files: ResourceFiles; apps: boolean } {
  const problems: Problem[] = [];
  const files: ResourceFiles = new Map();
  const error = (pointer: string, message: string) => problems.push({ severity: "error", pointer, message });
  const resources = Array.isArray(manifest.resources) ? manifest.resources : [];
  const uiResources = new Map<string, number>();
  let apps = false;
  resources.forEach((r, i) => {
    if (!isPlainObject(r)) return;
    const p = `/resources/${i}`;
    if (typeof r.uri === "string" && r.uri.startsWith("ui://")) {
      uiResources.set(r.uri, i);
      apps = true;
      if (r.mimeType !== APP_MIME)
        error(
          `${p}/mimeType`,
          `a ui:// resource is an MCP App view: its mimeType must be ${JSON.stringify(APP_MIME)}${r.mimeType === undefined ? "" : `, got ${JSON.stringify(r.mimeType)}`}`,
        );
    } else if (r.mimeType === APP_MIME) {
      error(`${p}/uri`, `an MCP App view (mimeType ${JSON.stringify(APP_MIME)}) must have a ui:// URI`);
    }
    if (typeof r.file !== "string" || !readFiles) return;
    const abs = resolve(baseDir, r.file);
    try {
      const st = statSync(abs);
      if (!st.isFile()) return error(`${p}/file`, `${JSON.stringify(r.file)} is not a file`);
      if (st.size > MAX_RESOURCE_FILE_BYTES)
        return error(
          `${p}/file`,
          `${JSON.stringify(r.file)} has ${st.size} bytes; a resource file may have at most ${MAX_RESOURCE_FILE_BYTES} (it is embedded in the generated server)`,
        );
      const text = new TextDecoder("utf-8", { fatal: true }).decode(readFileSync(abs));
      if (r.mimeType === APP_MIME && !/<html[\s>]/i.test(text))
        problems.push({
          severity: "warning",
          pointer: `${p}/file`,
          message: `${JSON.stringify(r.file)} has no <html> element; an MCP App view must be an HTML5 document`,
        });
      files.set(i, text);
    } catch (e) {
      if (e instanceof TypeError) return error(`${p}/file`, `${JSON.stringify(r.file)} is not UTF-8 text`);
      const code = (e as NodeJS.ErrnoException).code;
      error(
        `${p}/file`,
        code === "ENOENT"
          ? `file ${JSON.stringify(r.file)} not found (relative to the manifest)`
          : `cannot read ${JSON.stringify(r.file)} (${code ?? String(e)})`,
      );
    }
  });
  const tools = Array.isArray(manifest.tools) ? manifest.tools : [];
  tools.forEach((t, i) => {
    if (!isPlainObject(t)) return;
    const link = toolUiUri(t);
    const p = `/tools/${i}`;
    const ui = isPlainObject(t._meta) && isPlainObject(t._meta.ui) ? t._meta.ui : undefined;
    if (ui !== undefined && "visibility" in ui) {
      const v = ui.visibility;
      if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || !VISIBILITY.has(x)))
        error(`${p}/_meta/ui/visibility`, 'expected an array of "model" and/or "app"');
    }
    if (link === undefined) return;
    apps = true;
    if (typeof link.uri !== "string" || !uiResources.has(link.uri)) {
      const declared = [...uiResources.keys()];
      error(
        `${p}${link.pointer}`,
        `tool ${JSON.stringify(t.name)} links ${JSON.stringify(link.uri)}, which is not a ui:// resource of this manifest${declared.length > 0 ? ` (declared: ${declared.map((u) => JSON.stringify(u)).join(", ")})` : " (declare it under resources with mimeType " + JSON.stringify(APP_MIME) + ")"}`,
      );
    }
  });
  return { problems, files, apps };
}

/** Paths of the files resources are served from (generation inputs beside the manifest). */
export function resourceFilePaths(manifest: unknown): string[] {
  if (!isPlainObject(manifest) || !Array.isArray(manifest.resources)) return [];
  return manifest.resources.flatMap((r) => (isPlainObject(r) && typeof r.file === "string" ? [r.file] : []));
}
