/**
 * Semantic checks of a manifest beyond its JSON Schema (which rejects unknown keys): names and
 * their identifiers, URI template syntax, templates written as resources, prompt arguments, tool
 * name guidance, declared-but-empty capabilities.
 * Written defensively: they also run on manifests that failed the schema, so one pass reports
 * everything.
 */
import type { Diagnostic } from "./diagnostics.js";
import type { Manifest } from "./manifest-format.js";
import { isPlainObject } from "../json-schema/walk.js";
import { parseUriTemplate, unmatchableParts } from "./uri-template.js";
import { assignManifestNames, describeCollision, type ManifestNames } from "../names/index.js";

type Problem = Omit<Diagnostic, "file">;

/** RFC 6749 §3.3 scope-token. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const TOOL_NAME_GUIDANCE = /^[A-Za-z0-9_.-]{1,128}$/;

function entries(list: unknown): [number, { [key: string]: unknown }][] {
  return Array.isArray(list)
    ? list.flatMap((e, i) => (isPlainObject(e) ? [[i, e] as [number, { [key: string]: unknown }]] : []))
    : [];
}

function duplicates(list: unknown, section: string, key: string, what: string, out: Problem[]): void {
  const seen = new Map<string, number>();
  for (const [i, e] of entries(list)) {
    const v = e[key];
    if (typeof v !== "string") continue;
    const prior = seen.get(v);
    if (prior === undefined) seen.set(v, i);
    else
      out.push({
        severity: "error",
        pointer: `/${section}/${i}/${key}`,
        message: `duplicate ${what} ${JSON.stringify(v)} (also at /${section}/${prior}/${key})`,
      });
  }
}

export function checkManifestSemantics(manifest: Manifest): { problems: Problem[]; names: ManifestNames } {
  const out: Problem[] = [];
  const m = manifest as unknown as { [key: string]: unknown };

  for (const [i, tool] of entries(m.tools)) {
    const p = `/tools/${i}`;
    if (typeof tool.name === "string" && !TOOL_NAME_GUIDANCE.test(tool.name)) {
      out.push({
        severity: "warning",
        pointer: `${p}/name`,
        message: `tool name ${JSON.stringify(tool.name)} should be 1-128 characters of A-Z a-z 0-9 _ - . (MCP 2025-11-25 naming guidance)`,
      });
    }
    const scopes = isPlainObject(tool.auth) ? tool.auth.scopes : undefined;
    if (Array.isArray(scopes)) {
      scopes.forEach((s, j) => {
        if (typeof s === "string" && !SCOPE_TOKEN.test(s)) {
          out.push({
            severity: "error",
            pointer: `${p}/auth/scopes/${j}`,
            message: `OAuth scope ${JSON.stringify(s)} is not an RFC 6749 scope-token (printable ASCII without space, " or \\)`,
          });
        } else if (scopes.indexOf(s) !== j) {
          out.push({
            severity: "error",
            pointer: `${p}/auth/scopes/${j}`,
            message: `duplicate scope ${JSON.stringify(s)} (also at ${p}/auth/scopes/${scopes.indexOf(s)})`,
          });
        }
      });
    }
  }
  for (const [i, r] of entries(m.resources)) {
    // a template written under resources: "{" is not even legal in a URI (RFC 3986)
    if (typeof r.uri === "string" && /\{[^{}]*\}/.test(r.uri)) {
      out.push({
        severity: "error",
        pointer: `/resources/${i}/uri`,
        message: `${JSON.stringify(r.uri)} is a URI template; declare it under "resourceTemplates" as "uriTemplate" (its variables become typed handler arguments)`,
      });
    }
  }
  duplicates(m.resources, "resources", "uri", "resource uri", out);
  for (const [i, t] of entries(m.resourceTemplates)) {
    const p = `/resourceTemplates/${i}`;
    if (typeof t.uriTemplate !== "string") continue;
    const parsed = parseUriTemplate(t.uriTemplate);
    if (!parsed.ok)
      out.push({
        severity: "error",
        pointer: `${p}/uriTemplate`,
        message: `invalid RFC 6570 URI template at character ${parsed.offset + 1}: ${parsed.message}`,
      });
    else if (parsed.variables.length === 0)
      out.push({
        severity: "warning",
        pointer: `${p}/uriTemplate`,
        message: "template has no variables; declare it under resources instead",
      });
    else
      for (const why of unmatchableParts(parsed.variables))
        out.push({
          severity: "warning",
          pointer: `${p}/uriTemplate`,
          message: `resources/read cannot route by this template reliably: ${why}`,
        });
  }
  duplicates(m.resourceTemplates, "resourceTemplates", "uriTemplate", "uriTemplate", out);
  for (const [i, prompt] of entries(m.prompts)) {
    duplicates(prompt.arguments, `prompts/${i}/arguments`, "name", "prompt argument", out);
  }

  const caps = isPlainObject(m.capabilities) ? m.capabilities : {};
  const hasResources = entries(m.resources).length + entries(m.resourceTemplates).length > 0;
  if (isPlainObject(caps.resources) && !hasResources)
    out.push({
      severity: "warning",
      pointer: "/capabilities/resources",
      message: "resources capability flags declared but the manifest has no resources or resourceTemplates",
    });
  if (isPlainObject(caps.tools) && entries(m.tools).length === 0)
    out.push({
      severity: "warning",
      pointer: "/capabilities/tools",
      message: "tools capability flags declared but the manifest has no tools",
    });
  if (
    isPlainObject(caps.extensions) &&
    isPlainObject(caps.extensions["io.modelcontextprotocol/skills"]) &&
    entries(m.skills).length === 0
  ) {
    out.push({
      severity: "warning",
      pointer: "/capabilities/extensions/io.modelcontextprotocol~1skills",
      message:
        'the Skills extension is declared but the manifest has no "skills": the server would declare methods it does not serve; declare skills instead (the extension is then declared for you)',
    });
  }
  if (isPlainObject(caps.prompts) && entries(m.prompts).length === 0)
    out.push({
      severity: "warning",
      pointer: "/capabilities/prompts",
      message: "prompts capability flags declared but the manifest has no prompts",
    });

  const names = assignManifestNames(manifest);
  for (const c of names.collisions)
    out.push({ severity: "error", pointer: c.second.pointer, message: describeCollision(c) });
  for (const u of names.unnameable)
    out.push({
      severity: "error",
      pointer: u.pointer,
      message: `name ${JSON.stringify(u.name)} has no letter or digit to build an identifier from`,
    });
  return { problems: out, names };
}
