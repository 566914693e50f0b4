// The templates of generated files (templates/facades, templates/protocol, templates/fragments): logic-free (only
// {{#each}}, {{#if}}/{{else}} and plain values: no helpers, partials or sub-expressions), every
// one rendered by its emitter's view model under strict mode, every key of a view model used
// (removing any one is an error naming the template and the key), and rendering deterministic.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import Handlebars from "handlebars";
import { loadManifest } from "../../generator/load/manifest.js";
import { buildServerModel } from "../../generator/model/build-server.js";
import { buildModel } from "../../generator/model/index.js";
import { loadSchema } from "../../generator/load/index.js";
import { definitionView } from "../../generator/emit/manifest/definition.js";
import { serverView } from "../../generator/emit/manifest/server.js";
import { clientView } from "../../generator/emit/manifest/client.js";
import { listsView } from "../../generator/emit/manifest/lists.js";
import { bindingsView } from "../../generator/emit/manifest/bindings.js";
import { skillsView } from "../../generator/emit/manifest/skills.js";
import { resourceFilesView } from "../../generator/emit/manifest/resource-files.js";
import { methodsEntryView, methodsView } from "../../generator/emit/protocol/methods.js";
import { bindingView, indexView } from "../../generator/emit/protocol/binding.js";
import {
  localLayout,
  loadersView,
  prepareValidators,
  roleLoadersView,
  serverTableView,
  serverLoadView,
  serverValidatorView,
  validatorsView,
} from "../../generator/emit/protocol/validators.js";
import { manifestValidatorsView, toolValidatorsView } from "../../generator/emit/manifest/validators.js";
import { abiCheck, RUNTIME_ABI } from "../../generator/emit/runtime-imports.js";
import { renderTemplate, templatesDir, type ViewModel } from "../../generator/templates.js";
import { fixture } from "../manifest/helpers.js";

const model = buildServerModel(loadManifest(fixture("templates")));
const protocol = buildModel(loadSchema("2024-11-05"));
const prepared = prepareValidators(protocol);
const { layout } = localLayout(prepared);

const views: Record<string, ViewModel> = {
  "facades/server.ts": serverView(model),
  "facades/client.ts": clientView(model),
  "facades/definition.ts": definitionView(model),
  "facades/lists.ts": listsView(model),
  "facades/validators.ts": manifestValidatorsView(model),
  "facades/tool-validators.ts": toolValidatorsView(model),
  "facades/skills.ts": skillsView(model),
  "facades/resource-files.ts": resourceFilesView(model),
  "protocol/methods.ts": methodsEntryView(protocol),
  "protocol/table.ts": methodsView(protocol),
  "protocol/binding.ts": bindingView(protocol),
  "protocol/index.ts": indexView(),
  "protocol/validators.ts": validatorsView(prepared, layout),
  "protocol/loaders.ts": loadersView(prepared, layout),
  "protocol/role-loaders.ts": roleLoadersView(prepared, layout, "server"),
  "protocol/server-table.ts": serverTableView(protocol),
  "protocol/server-load.ts": serverLoadView([prepared]),
  "protocol/server-load-bundled.ts": serverLoadView([prepared]),
  "protocol/server-validator.ts": serverValidatorView(prepared, layout, "params", "tools/call"),
  "fragments/abi-check.ts": { abiVersion: String(RUNTIME_ABI), exported: true },
};

const templates = ["facades", "protocol", "fragments"].flatMap((d) =>
  readdirSync(join(templatesDir, d))
    .filter((f) => f.endsWith(".hbs"))
    .map((f) => `${d}/${f.slice(0, -".hbs".length)}`),
);

test("every template of generated code has a view model here", () => {
  assert.equal(templates.sort(), Object.keys(views).sort());
});

/** Every helper a template calls (block helpers by name; a mustache with params or a hash counts as a call). */
function calls(node: hbs.AST.Node, out: string[] = []): string[] {
  const n = node as unknown as {
    type: string;
    path?: { original: string };
    params?: unknown[];
    hash?: unknown;
    body?: hbs.AST.Node[];
    program?: hbs.AST.Program;
    inverse?: hbs.AST.Program;
  };
  if (n.type === "BlockStatement") out.push(`#${n.path!.original}`);
  if (n.type === "MustacheStatement" && ((n.params?.length ?? 0) > 0 || n.hash)) out.push(n.path!.original);
  if (
    n.type === "PartialStatement" ||
    n.type === "PartialBlockStatement" ||
    n.type === "SubExpression" ||
    n.type === "DecoratorBlock"
  )
    out.push(n.type);
  for (const child of [...(n.body ?? []), n.program, n.inverse]) if (child) calls(child, out);
  return out;
}

test("templates are logic-free: only #each and #if, no helpers, partials or sub-expressions", () => {
  for (const name of templates) {
    const used = calls(Handlebars.parse(readFileSync(join(templatesDir, `${name}.hbs`), "utf8")));
    assert.equal(
      used.filter((c) => c !== "#each" && c !== "#if"),
      [],
      name,
    );
  }
});

test("every template renders under strict mode, deterministically", () => {
  for (const [name, view] of Object.entries(views)) {
    const a = renderTemplate(name, view);
    assert.ok(a.length > 0, name);
    assert.is(renderTemplate(name, structuredClone(view)), a, name);
  }
});

test("every key of a view model is used: without it, rendering fails naming the template and the key", () => {
  for (const [name, view] of Object.entries(views)) {
    for (const key of Object.keys(view)) {
      const { [key]: _, ...rest } = view;
      assert.throws(
        () => renderTemplate(name, rest),
        (e: Error) => e.message.startsWith(`template ${name}.hbs: `) && e.message.includes(`"${key}"`),
        `${name} without ${key}`,
      );
    }
  }
});

test("the runtime ABI check is one fragment: server.ts, client.ts and bindings.ts carry it alike, only bindings.ts exports the version", () => {
  const server = renderTemplate("facades/server.ts", serverView(model));
  const client = renderTemplate("facades/client.ts", clientView(model));
  const bindings = renderTemplate("output/bindings.ts", bindingsView(["2025-11-25"]));
  for (const [file, text, exported] of [
    ["server.ts", server, false],
    ["client.ts", client, false],
    ["bindings.ts", bindings, true],
  ] as const) {
    assert.ok(text.includes(abiCheck(exported)), file);
    assert.is(text.split("runtime.ABI_VERSION !== abiVersion").length, 2, `${file}: one check`);
  }
  assert.is(abiCheck(true), abiCheck(false).replace("\nconst abiVersion", "\nexport const abiVersion"));
});

test.run();
