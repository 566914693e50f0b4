/**
 * The files mcpgen writes that are not generated code (what `mcpgen init` scaffolds, the README
 * and `.gitattributes` of a manifest's output folder) are handlebars templates in the package's
 * `templates/` folder, so they read as the files they produce. Templates are logic-free: every
 * value is computed by the caller (already JSON-encoded where it lands in JSON), rendered with
 * `noEscape` (nothing here is HTML) and `strict` (a missing value is an error, never an empty
 * string in a user's file).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Handlebars from "handlebars";
import { packageRoot } from "./paths.js";

export const templatesDir = join(packageRoot, "templates");

const compiled = new Map<string, HandlebarsTemplateDelegate>();
const handlebars = Handlebars.create();

/** Renders `templates/<name>.hbs` with `data`; throws naming the template and the missing value. */
export function renderTemplate(name: string, data: Record<string, unknown>): string {
  let template = compiled.get(name);
  if (!template) {
    const source = readFileSync(join(templatesDir, `${name}.hbs`), "utf8");
    template = handlebars.compile(source, { noEscape: true, strict: true });
    compiled.set(name, template);
  }
  try {
    return template(data);
  } catch (e) {
    throw new Error(`template ${name}.hbs: ${(e as Error).message.split("\n")[0]}`);
  }
}
