/**
 * `resource-files.ts`: the content of the resources the manifest serves from a `file` (an MCP App
 * view, most often), with the resource's `mimeType` and `_meta` (where an app view's `ui` settings
 * live, sent on the content too as the Apps extension asks). The generated server imports it on
 * the first read of such a resource, so a server starts without it and a client never carries it.
 */
import type { EmittedFile } from "../../model/ir.js";
import type { ServerModel } from "../../model/server-ir.js";
import { renderFile } from "../files.js";
import { runtimeImports } from "../runtime-imports.js";
import { quotedForDoc } from "./definition.js";

export function resourceFilesView(model: ServerModel) {
  const files: { [uri: string]: unknown } = {};
  for (const r of model.resources) {
    if (r.file === null) continue;
    const meta = r.definition._meta;
    files[r.uri] = {
      ...(r.mimeType === null ? {} : { mimeType: r.mimeType }),
      text: r.file,
      ...(meta === undefined ? {} : { _meta: meta }),
    };
  }
  return {
    abi: runtimeImports.abi,
    serverName: quotedForDoc(model.identity.name),
    files: JSON.stringify(files, null, 2),
  };
}

export function emitResourceFiles(model: ServerModel): EmittedFile {
  return renderFile("manifest", "resource-files.ts", resourceFilesView(model));
}
