/**
 * Every file mcpgen writes has its skeleton in the package's `templates/` folder, as a handlebars
 * template that reads as the file it produces: what `mcpgen init` scaffolds (`init/`), the README
 * and `.gitattributes` of a manifest's output folder (`output/`), the facades of a manifest
 * (`facades/`: server, client, definition, lists) and the per-revision protocol entry files
 * (`protocol/`: methods, index). Templates are logic-free (`{{#each}}`, `{{#if}}`, `{{value}}`,
 * no helpers): every value is computed by the caller as a plain view model (names, type
 * expressions, JSDoc text, values already JSON-encoded where they land in code or JSON), rendered
 * with `noEscape` (nothing here is HTML) and `strict` (a missing value is an error, never an
 * empty string in a user's file). Layout of generated code is prettier's job (print stage).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Handlebars from "handlebars";
import { packageRoot } from "./paths.js";

export const templatesDir = join(packageRoot, "templates");

/** What a template is rendered with: plain data, no functions. */
export type ViewModel = { readonly [key: string]: ViewValue };
export type ViewValue = string | number | boolean | null | ViewModel | readonly ViewValue[];

const compiled = new Map<string, HandlebarsTemplateDelegate>();
// knownHelpersOnly: a template calling anything but handlebars' built-ins fails to compile, so no
// helper can compute behind a template's back
const handlebars = Handlebars.create();

/** Renders `templates/<name>.hbs` with `data`; throws naming the template and the missing value. */
export function renderTemplate(name: string, data: ViewModel): string {
  let template = compiled.get(name);
  if (!template) {
    const source = readFileSync(join(templatesDir, `${name}.hbs`), "utf8");
    template = handlebars.compile(source, { noEscape: true, strict: true, knownHelpersOnly: true, knownHelpers: { each: true, if: true } });
    compiled.set(name, template);
  }
  try {
    return template(data);
  } catch (e) {
    throw new Error(`template ${name}.hbs: ${(e as Error).message.split("\n")[0]}`);
  }
}
