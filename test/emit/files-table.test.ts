// The table of generated files (generator/emit/files.ts) held against what the generator writes:
// every file of the checked-in outputs and of a fresh in-memory generation matches exactly one
// row, every row is written by something, every template of generated code is in the table, a
// templated file is its template rendered with the view function the table names, and the
// functions the table names exist.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  generatedFiles,
  pathMatches,
  rowOf,
  renderFile,
  type FileRow,
  type Output,
} from "../../generator/emit/files.js";
import { generateManifest } from "../../generator/render/manifest.js";
import { outputDocsView } from "../../generator/generate.js";
import { emitters } from "../../generator/emit/protocol/registry.js";
import {
  localLayout,
  loadersView,
  prepareValidators,
  roleLoadersView,
  serverTableView,
  serverValidatorView,
  validatorsView,
} from "../../generator/emit/protocol/validators.js";
import { methodsEntryView, methodsView } from "../../generator/emit/protocol/methods.js";
import { bindingView, indexView } from "../../generator/emit/protocol/binding.js";
import { serverView } from "../../generator/emit/manifest/server.js";
import { clientView } from "../../generator/emit/manifest/client.js";
import { definitionView } from "../../generator/emit/manifest/definition.js";
import { listsView } from "../../generator/emit/manifest/lists.js";
import { bindingsView } from "../../generator/emit/manifest/bindings.js";
import { servedRevisions } from "../../generator/model/served-revisions.js";
import { manifestValidatorsView, toolValidatorsView } from "../../generator/emit/manifest/validators.js";
import { emitWireTypes, RUNTIME_WIRE, wireView } from "../../generator/emit/wire-types.js";
import { newestRevision } from "../../generator/render/runtime-wire.js";
import { buildModel } from "../../generator/model/index.js";
import { loadSchema } from "../../generator/load/index.js";
import { SERVER_SIDE_TABLE, serverSideFile } from "../../generator/emit/runtime-imports.js";
import { renderTemplate, templatesDir, type ViewModel } from "../../generator/templates.js";
import type { EmittedFile } from "../../generator/model/ir.js";
import type { ServerModel } from "../../generator/model/server-ir.js";
import { skillsView } from "../../generator/emit/manifest/skills.js";
import { resourceFilesView } from "../../generator/emit/manifest/resource-files.js";
import { repoRoot, revisions } from "../helpers.js";
import { SHARED_FOLDER } from "../../generator/paths.js";

const generatorDir = join(repoRoot, "dist", "generator");

/** Files under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const abs = join(dir, name);
    return statSync(abs).isDirectory() ? filesUnder(abs).map((f) => `${name}/${f}`) : [name];
  });
}

/** Every row matched by a written file, to find rows nothing writes. */
const matched = new Set<FileRow>();

function rowFor(output: Output, path: string, where: string): FileRow {
  const rows = generatedFiles.filter((r) => r.output === output && pathMatches(r.path, path));
  assert.is(rows.length, 1, `${where}: ${output} file ${path} matches ${rows.length} rows of generator/emit/files.ts`);
  matched.add(rows[0]!);
  return rows[0]!;
}

/** Each templated file is its row's template rendered with `views[path]`; the others are not templated. */
function holdFiles(
  output: Output,
  files: readonly EmittedFile[],
  views: Record<string, () => ViewModel>,
  where: string,
): void {
  for (const f of files) {
    const row = rowFor(output, f.path, where);
    if (!("template" in row)) continue;
    const view = views[f.path];
    assert.ok(view, `${where}: the test has no view for ${f.path}`);
    assert.is(
      f.contents,
      renderTemplate(row.template, view!()),
      `${where}: ${f.path} is ${row.template}.hbs rendered with ${row.view}`,
    );
  }
}

function manifestViews(model: ServerModel): Record<string, () => ViewModel> {
  const spoken = servedRevisions(model.revisions, "manifest");
  return {
    "server.ts": () => serverView(model, spoken),
    "client.ts": () => clientView(model, spoken),
    "definition.ts": () => definitionView(model),
    "lists.ts": () => listsView(model),
    "bindings.ts": () => bindingsView(spoken, model.staticImports === true),
    "validators.ts": () => manifestValidatorsView(model, 120),
    "tool-validators.ts": () => toolValidatorsView(model, 120),
    "skills.ts": () => skillsView(model),
    "resource-files.ts": () => resourceFilesView(model),
  };
}

test("checked-in outputs: every file matches exactly one row", () => {
  for (const revision of revisions) {
    for (const f of filesUnder(join(repoRoot, "generated", revision))) rowFor("protocol", f, `generated/${revision}`);
  }
  for (const f of filesUnder(join(repoRoot, "generated", SHARED_FOLDER))) rowFor("shared", f, "generated/shared");
  for (const dir of [
    "examples/weather/src/mcp",
    "examples/everything/src/mcp",
    "examples/apps/src/mcp",
    "examples/notes/code-first/src/mcp",
    "bench/add/text",
    "bench/add/structured",
    "test/fixtures/templates/golden",
    "test/fixtures/templates/golden-workers",
  ]) {
    for (const f of filesUnder(join(repoRoot, dir))) rowFor("manifest", f, dir);
  }
  for (const f of filesUnder(join(repoRoot, "runtime", "src", "wire"))) rowFor("runtime-wire", f, "runtime/src/wire");
});

test("a manifest's output: templated files are their template with the named view", () => {
  for (const name of ["test/fixtures/templates/mcp.manifest.json", "examples/everything/mcp.manifest.json"]) {
    const r = generateManifest(join(repoRoot, name), { printWidth: 120 });
    holdFiles("manifest", r.files, manifestViews(r.model), name);
  }
  const manifest = join(repoRoot, "test", "fixtures", "templates", "mcp.manifest.json");
  const out = join(repoRoot, "test", "fixtures", "templates", "golden");
  const view = outputDocsView(
    readFileSync(manifest),
    manifest,
    out,
    generateManifest(manifest).model.revisions.join(", "),
  );
  for (const path of ["README.md", ".gitattributes"]) {
    // the checked-in copy is what generate wrote (the golden test holds it fresh)
    holdFiles(
      "manifest",
      [{ path, contents: readFileSync(join(out, path), "utf8") }],
      { [path]: () => view },
      "test/fixtures/templates/golden",
    );
  }
});

test("a revision's output: templated files are their template with the named view", async () => {
  const model = buildModel(loadSchema("2024-11-05"));
  const files = (await Promise.all(emitters.map((e) => e.emit(model, {})))).flat();
  const prepared = prepareValidators(model);
  const { layout } = localLayout(prepared);
  holdFiles(
    "protocol",
    files,
    {
      "validators.ts": () => validatorsView(prepared, layout),
      "loaders.ts": () => loadersView(prepared, layout),
      "server-side.ts": () => roleLoadersView(prepared, layout, "server"),
      "client-side.ts": () => roleLoadersView(prepared, layout, "client"),
      [`${SERVER_SIDE_TABLE}.ts`]: () => serverTableView(model),
      ...Object.fromEntries(
        files
          .map((f) => /^server-side\/(params|results)\/(.+)\.ts$/.exec(f.path))
          .filter((m) => m !== null)
          .map((m) => {
            const what = m[1] as "params" | "results";
            const method = model.methods.find((d) => serverSideFile(what, d.method) === `server-side/${what}/${m[2]}`)!;
            return [m[0], () => serverValidatorView(prepared, layout, what, method.method)];
          }),
      ),
      "table.ts": () => methodsView(model),
      "methods.ts": () => methodsEntryView(model),
      "binding.ts": () => bindingView(model),
      "index.ts": () => indexView(),
    },
    "2024-11-05",
  );
});

test("the runtime's wire types are their template with the named view", () => {
  for (const selection of RUNTIME_WIRE) {
    const model = buildModel(loadSchema(newestRevision(selection.era)));
    holdFiles(
      "runtime-wire",
      [emitWireTypes(model, selection)],
      { [`${selection.era}.ts`]: () => wireView(model, selection) },
      "runtime/src/wire",
    );
  }
});

test("every row is written by something, and every template of generated code is in the table", () => {
  assert.equal(
    generatedFiles.filter((r) => !matched.has(r)).map((r) => `${r.output} ${r.path}`),
    [],
  );
  const templates = ["facades", "protocol", "output", "runtime"].flatMap((d) =>
    readdirSync(join(templatesDir, d)).map((f) => `${d}/${f.replace(/\.hbs$/, "")}`),
  );
  const listed = new Set(generatedFiles.flatMap((r) => ("template" in r ? [r.template] : [])));
  assert.equal(
    templates.filter((t) => !listed.has(t)),
    [],
  );
  assert.equal(
    [...listed].filter((t) => !templates.includes(t)),
    [],
  );
  // templates/init is what `mcpgen init` scaffolds (generator/init.ts), fragments/ are rendered into views
  assert.equal(readdirSync(templatesDir).sort(), ["facades", "fragments", "init", "output", "protocol", "runtime"]);
});

test("the functions the table names are exported by the modules it names", async () => {
  for (const row of generatedFiles) {
    const ref = "template" in row ? row.view : row.emitter;
    const [module, name] = ref.split("#") as [string, string];
    const exported = (await import(pathToFileURL(join(generatorDir, module)).href)) as Record<string, unknown>;
    assert.type(exported[name], "function", `${row.output} ${row.path}: ${ref}`);
  }
});

test("renderFile refuses a file without a template, and rowOf knows only listed files", () => {
  assert.throws(() => renderFile("protocol", "types.ts", {}), /protocol file types\.ts has no template/);
  assert.throws(() => renderFile("manifest", "extra.ts", {}), /manifest file extra\.ts has no template/);
  assert.is(rowOf("protocol", "validators/a/b.ts"), undefined);
  assert.ok(rowOf("protocol", "validators/shared-0123456789.ts"));
});

test.run();
