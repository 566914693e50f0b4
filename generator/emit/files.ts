/**
 * Every file mcpgen generates, in one table: the output it belongs to, its path there, how it is
 * made and who lays it out. A file whose shape is fixed has a template (`templates/<name>.hbs`, logic-free) and a
 * view function computing the values; emitters render such files only through `renderFile`, which
 * takes the template from this table. The other files are declared here as what they are: ajv's
 * machine code, or declarations derived one to one from JSON Schema. A test holds the table against
 * what the generator writes (every written file matches one row, every row is written, every
 * template is listed) and docs/templates.md shows it.
 */
import { renderTemplate, type ViewModel } from "../templates.js";
import type { EmittedFile } from "../model/ir.js";

/**
 * `protocol`: one revision's bindings (`generated/<rev>/`); `shared`: the validator modules several
 * bundled revisions use (`generated/shared/`); `manifest`: a manifest's output folder;
 * `runtime-wire`: `runtime/src/wire/`.
 */
export type Output = "protocol" | "shared" | "manifest" | "runtime-wire";

/**
 * Who lays a file out. Prettier (the print stage, fixed options, width 120) unless the file grows
 * with a manifest's schemas, where prettier would cost seconds: then its emitter writes prettier's
 * layout itself (tests hold each a prettier fixpoint) and the print stage only adds the banner.
 * - `indent`: written line by line, indented and broken by print/indent.ts;
 * - `print-data`: values laid out by print/print-data.ts into a template written in prettier's layout;
 * - `view`: the view function decides the one break prettier would make;
 * - `as emitted`: not code prettier should touch (ajv's modules of a manifest, README, .gitattributes).
 */
export type Layout = "prettier" | "indent" | "print-data" | "view" | "as emitted";

interface Row {
  output: Output;
  /** Path inside the output folder; `*` stands for any characters but `/`. */
  path: string;
  layout: Layout;
}

export interface TemplatedFile extends Row {
  /** Under `templates/`, without `.hbs`. */
  template: string;
  /** The exported function computing the view model, as `<module under generator/>#<name>`. */
  view: string;
}

export interface GeneratedFile extends Row {
  /** What the file is, when it has no template. */
  kind: "machine code" | "schema declarations";
  /** The exported function writing it, as `<module under generator/>#<name>`. */
  emitter: string;
}

export type FileRow = TemplatedFile | GeneratedFile;

export const generatedFiles: readonly FileRow[] = [
  {
    output: "protocol",
    path: "types.ts",
    kind: "schema declarations",
    emitter: "emit/protocol/types.js#emitTypes",
    layout: "prettier",
  },
  {
    output: "protocol",
    path: "validators/*.ts",
    kind: "machine code",
    emitter: "emit/protocol/validators.js#emitValidators",
    layout: "prettier",
  },
  {
    output: "shared",
    path: "validators/*.ts",
    kind: "machine code",
    emitter: "emit/protocol/validators.js#validatorSharing",
    layout: "prettier",
  },
  {
    output: "shared",
    path: "server-side/load.ts",
    template: "protocol/server-load.ts",
    view: "emit/protocol/validators.js#serverLoadView",
    layout: "prettier",
  },
  {
    output: "shared",
    path: "server-side/load-bundled.ts",
    template: "protocol/server-load-bundled.ts",
    view: "emit/protocol/validators.js#serverLoadView",
    layout: "prettier",
  },
  {
    output: "protocol",
    path: "validators.ts",
    template: "protocol/validators.ts",
    view: "emit/protocol/validators.js#validatorsView",
    layout: "prettier",
  },
  {
    output: "protocol",
    path: "loaders.ts",
    template: "protocol/loaders.ts",
    view: "emit/protocol/validators.js#loadersView",
    layout: "prettier",
  },
  {
    output: "protocol",
    path: "server-side.ts",
    template: "protocol/role-loaders.ts",
    view: "emit/protocol/validators.js#roleLoadersView",
    layout: "prettier",
  },
  {
    output: "protocol",
    path: "client-side.ts",
    template: "protocol/role-loaders.ts",
    view: "emit/protocol/validators.js#roleLoadersView",
    layout: "prettier",
  },
  {
    output: "protocol",
    path: "server-side/table.ts",
    template: "protocol/server-table.ts",
    view: "emit/protocol/validators.js#serverTableView",
    layout: "prettier",
  },
  {
    output: "protocol",
    path: "server-side/params/*.ts",
    template: "protocol/server-validator.ts",
    view: "emit/protocol/validators.js#serverValidatorView",
    layout: "prettier",
  },
  {
    output: "protocol",
    path: "server-side/results/*.ts",
    template: "protocol/server-validator.ts",
    view: "emit/protocol/validators.js#serverValidatorView",
    layout: "prettier",
  },
  {
    output: "protocol",
    path: "table.ts",
    template: "protocol/table.ts",
    view: "emit/protocol/methods.js#methodsView",
    layout: "prettier",
  },
  {
    output: "protocol",
    path: "methods.ts",
    template: "protocol/methods.ts",
    view: "emit/protocol/methods.js#methodsEntryView",
    layout: "prettier",
  },
  {
    output: "protocol",
    path: "binding.ts",
    template: "protocol/binding.ts",
    view: "emit/protocol/binding.js#bindingView",
    layout: "prettier",
  },
  {
    output: "protocol",
    path: "index.ts",
    template: "protocol/index.ts",
    view: "emit/protocol/binding.js#indexView",
    layout: "prettier",
  },
  {
    output: "manifest",
    path: "types.ts",
    kind: "schema declarations",
    emitter: "emit/manifest/types.js#emitManifestTypes",
    layout: "indent",
  },
  {
    output: "manifest",
    path: "tools.ajv.ts",
    kind: "machine code",
    emitter: "emit/manifest/validators.js#emitManifestValidators",
    layout: "as emitted",
  },
  {
    output: "manifest",
    path: "tools.2020.ajv.ts",
    kind: "machine code",
    emitter: "emit/manifest/validators.js#emitManifestValidators",
    layout: "as emitted",
  },
  {
    output: "manifest",
    path: "tools.all-errors.ajv.ts",
    kind: "machine code",
    emitter: "emit/manifest/validators.js#emitManifestValidators",
    layout: "as emitted",
  },
  {
    output: "manifest",
    path: "tools.2020.all-errors.ajv.ts",
    kind: "machine code",
    emitter: "emit/manifest/validators.js#emitManifestValidators",
    layout: "as emitted",
  },
  {
    output: "manifest",
    path: "tools.defaults.ts",
    kind: "machine code",
    emitter: "emit/manifest/default-appliers.js#appliersModule",
    layout: "as emitted",
  },
  {
    output: "manifest",
    path: "validators.ts",
    template: "facades/validators.ts",
    view: "emit/manifest/validators.js#manifestValidatorsView",
    layout: "view",
  },
  {
    output: "manifest",
    path: "tool-validators.ts",
    template: "facades/tool-validators.ts",
    view: "emit/manifest/validators.js#toolValidatorsView",
    layout: "view",
  },
  {
    output: "manifest",
    path: "lists.ts",
    template: "facades/lists.ts",
    view: "emit/manifest/lists.js#listsView",
    layout: "print-data",
  },
  {
    output: "manifest",
    path: "definition.ts",
    template: "facades/definition.ts",
    view: "emit/manifest/definition.js#definitionView",
    layout: "prettier",
  },
  {
    output: "manifest",
    path: "server.ts",
    template: "facades/server.ts",
    view: "emit/manifest/server.js#serverView",
    layout: "prettier",
  },
  {
    output: "manifest",
    path: "client.ts",
    template: "facades/client.ts",
    view: "emit/manifest/client.js#clientView",
    layout: "prettier",
  },
  {
    output: "manifest",
    path: "resource-files.ts",
    template: "facades/resource-files.ts",
    view: "emit/manifest/resource-files.js#resourceFilesView",
    layout: "prettier",
  },
  {
    output: "manifest",
    path: "skills.ts",
    template: "facades/skills.ts",
    view: "emit/manifest/skills.js#skillsView",
    layout: "prettier",
  },
  {
    output: "manifest",
    path: "bindings.ts",
    template: "output/bindings.ts",
    view: "emit/manifest/bindings.js#bindingsView",
    layout: "prettier",
  },
  {
    output: "manifest",
    path: "README.md",
    template: "output/README.md",
    view: "generate.js#outputDocsView",
    layout: "as emitted",
  },
  {
    output: "manifest",
    path: ".gitattributes",
    template: "output/gitattributes",
    view: "generate.js#outputDocsView",
    layout: "as emitted",
  },
  {
    output: "runtime-wire",
    path: "*.ts",
    template: "runtime/wire.ts",
    view: "emit/wire-types.js#wireView",
    layout: "prettier",
  },
];

/** Whether `path` is what `pattern` (a row's path) names. */
export function pathMatches(pattern: string, path: string): boolean {
  const parts = pattern.split("*");
  if (parts.length === 1) return pattern === path;
  if (parts.length !== 2) throw new Error(`row path ${pattern}: one * at most`);
  const [head, tail] = parts as [string, string];
  return (
    path.length >= head.length + tail.length &&
    path.startsWith(head) &&
    path.endsWith(tail) &&
    !path.slice(head.length, path.length - tail.length).includes("/")
  );
}

/** The row of a generated file; undefined when the table does not list it. */
export function rowOf(output: Output, path: string): FileRow | undefined {
  return generatedFiles.find((r) => r.output === output && pathMatches(r.path, path));
}

/**
 * Throws on a file the table does not list: a new generated file is declared (with its template, or
 * as machine code or schema declarations) before any run can write it.
 */
export function assertListed(output: Output, files: readonly EmittedFile[]): void {
  for (const f of files)
    if (rowOf(output, f.path) === undefined)
      throw new Error(`${output} file ${f.path} is not listed in generator/emit/files.ts`);
}

/** The paths among `files` that the print stage does not run prettier on (their layout is decided elsewhere, see Layout). */
export function skipsPrettier(output: Output, files: readonly EmittedFile[]): Set<string> {
  return new Set(files.filter((f) => rowOf(output, f.path)?.layout !== "prettier").map((f) => f.path));
}

/** `path` of `output` rendered from the template the table gives it (unformatted, no banner). */
export function renderFile(output: Output, path: string, view: ViewModel): EmittedFile {
  const row = rowOf(output, path);
  if (row === undefined || !("template" in row))
    throw new Error(`${output} file ${path} has no template in generator/emit/files.ts`);
  return { path, contents: renderTemplate(row.template, view) };
}
