/**
 * `skills.ts`: the manifest's skills as the server serves them (Skills extension): each skill's
 * path, SKILL.md frontmatter as JSON and every file with its content, digest and size, read and
 * checked at generation (load/skills.ts). Only the generated server imports it, through the
 * `skills` thunk of its definition, so a client and a server without skills never carry it.
 */
import type { EmittedFile } from "../../model/ir.js";
import type { ServerModel } from "../../model/server-ir.js";
import { renderFile } from "../files.js";
import { runtimeImports } from "../runtime-imports.js";
import { quotedForDoc } from "./definition.js";

export function skillsView(model: ServerModel) {
  const skills = model.skills.map((s) => ({
    path: s.path,
    frontmatter: s.frontmatter,
    files: s.files.map((f) =>
      f.text !== undefined
        ? { path: f.path, mimeType: f.mimeType, text: f.text, digest: f.digest, size: f.size }
        : { path: f.path, mimeType: f.mimeType, blob: f.blob, digest: f.digest, size: f.size },
    ),
  }));
  return {
    serverName: quotedForDoc(model.identity.name),
    skillsServer: runtimeImports.skillsServer,
    skills: JSON.stringify(skills, null, 2),
  };
}

export function emitSkills(model: ServerModel): EmittedFile {
  return renderFile("manifest", "skills.ts", skillsView(model));
}
