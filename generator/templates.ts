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

interface Compiled {
  ast: hbs.AST.Program;
  render: HandlebarsTemplateDelegate;
}

const compiled = new Map<string, Compiled>();
// knownHelpersOnly: a template calling anything but handlebars' built-ins fails to compile, so no
// helper can compute behind a template's back
const handlebars = Handlebars.create();

/** Renders `templates/<name>.hbs` with `data`; throws naming the template and the missing value. */
export function renderTemplate(name: string, data: ViewModel): string {
  let template = compiled.get(name);
  if (!template) {
    const source = readFileSync(join(templatesDir, `${name}.hbs`), "utf8");
    const ast = handlebars.parse(source);
    template = {
      ast,
      render: handlebars.compile(ast, {
        noEscape: true,
        strict: true,
        knownHelpersOnly: true,
        knownHelpers: { each: true, if: true },
      }),
    };
    compiled.set(name, template);
  }
  try {
    checkBlocks(template.ast, [data]);
    return template.render(data);
  } catch (e) {
    throw new Error(`template ${name}.hbs: ${(e as Error).message.split("\n")[0]}`);
  }
}

/**
 * Handlebars' strict mode checks values (`{{name}}`) but not the parameter of a block
 * (`{{#each tools}}`, `{{#if cache}}`): a misspelt or missing list would silently render as
 * empty. This walks the template the way handlebars renders it (`#each` descends into every
 * item, `#if` into the branch taken) and fails on a block parameter the view model lacks.
 */
function checkBlocks(program: hbs.AST.Program, contexts: readonly unknown[]): void {
  for (const node of program.body) {
    if (node.type !== "BlockStatement") continue;
    const block = node as hbs.AST.BlockStatement;
    const param = block.params[0];
    if (param?.type !== "PathExpression" || (param as hbs.AST.PathExpression).data) continue;
    const path = param as hbs.AST.PathExpression;
    const values = contexts.map((c) => resolve(c, path, block.path.original));
    if (block.path.original === "each") {
      checkBlocks(
        block.program,
        values.flatMap((v) => (Array.isArray(v) ? v : [])),
      );
      if (block.inverse)
        checkBlocks(
          block.inverse,
          contexts.filter((_, i) => !Array.isArray(values[i]) || values[i].length === 0),
        );
    } else {
      const truthy = (v: unknown) => (Array.isArray(v) ? v.length > 0 : Boolean(v));
      checkBlocks(
        block.program,
        contexts.filter((_, i) => truthy(values[i])),
      );
      if (block.inverse)
        checkBlocks(
          block.inverse,
          contexts.filter((_, i) => !truthy(values[i])),
        );
    }
  }
}

function resolve(context: unknown, path: hbs.AST.PathExpression, helper: string): unknown {
  let value = context;
  for (const part of path.parts) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, part)) {
      throw new Error(
        `"${part}" not defined in the view model (in {{#${helper} ${path.original}}} at line ${path.loc.start.line})`,
      );
    }
    value = (value as { [key: string]: unknown })[part];
  }
  return value;
}
