/**
 * Everything generated code imports from `@mcpgen/runtime`, in one table: the views of the
 * templates and the emitters of machine code take their module specifiers from here, so a new
 * runtime entry (or a versioned ABI path) is one edit, and the ABI check is one fragment
 * (`templates/fragments/abi-check.ts.hbs`) rendered into each file that links the runtime.
 */
import { renderTemplate } from "../templates.js";

/**
 * The runtime ABI (`ABI_VERSION` of the runtime's abi.ts) generated code is written for; a test
 * keeps it equal to the runtime's. It names the entry generated code imports, so a runtime without
 * this ABI fails when that import resolves (tsc reports it at compile time).
 */
export const RUNTIME_ABI = 8;

/** The per-revision entries of `@mcpgen/runtime/protocol/<rev>`: both roles' loaders, or one role's. */
export type ProtocolEntry = "methods" | "server-side" | "client-side";

export const runtimeImports = {
  /**
   * The ABI of generated code, versioned in its path: validator and loader types, method tables,
   * `lazyRevision`, format checks and ajv's helpers, and what the generated server, client and
   * definition link (`createMcpServer`, `createMcpClient` and their types).
   */
  abi: `@mcpgen/runtime/abi/v${RUNTIME_ABI}`,
  /**
   * The part of the ABI that ajv's `allErrors` code calls (`counted`, `formats`, `equal`,
   * `ucs2length`), imported by the all-errors tool validators: they load by a dynamic import, and a
   * bundler wraps what such a module reaches in lazy-init glue, which through `abi` is most of the runtime.
   */
  abiAllErrors: `@mcpgen/runtime/abi/v${RUNTIME_ABI}/all-errors`,
  /** The task machinery, imported by the server of a manifest with task tools. */
  tasksServer: "@mcpgen/runtime/tasks/server",
  /** The Skills extension's server side, imported with `skills.ts` by the server of a manifest with skills. */
  skillsServer: "@mcpgen/runtime/skills/server",
  /** The Skills extension's client side, imported by the client of a manifest with skills. */
  skillsClient: "@mcpgen/runtime/skills/client",
  /** One revision's protocol bindings, built from mcpgen's `generated/<rev>/`. */
  protocol: (revision: string, entry: ProtocolEntry): string => `@mcpgen/runtime/protocol/${revision}/${entry}`,
  /**
   * One file of a revision's per-method server entries (`server-side/table`, or a validator a server
   * receives, `serverSideFile`), which the generated server imports for what its manifest serves.
   */
  serverSide: (revision: string, file: string): string => `@mcpgen/runtime/protocol/${revision}/${file}`,
  /** The loaders of every bundled revision's per-method server entries (`SERVER_LOAD`), which the generated server names. */
  serverLoad: "@mcpgen/runtime/protocol/server-load",
} as const;

/** Path, in a revision's folder and without extension, of its method table for the generated server. */
export const SERVER_SIDE_TABLE = "server-side/table";

/**
 * Path, in the bundled revisions' shared folder and without extension, of the module giving the
 * generated server one loader per per-method server entry of every bundled revision
 * (`serverLoaderName`; `runtimeImports.serverLoad`): import thunks on Node, Bun and Deno; under the
 * bundlers' conditions (workerd, worker, browser) its `-bundled` twin over static imports, so a
 * bundle of the server has no dynamic import of the protocol modules.
 */
export const SERVER_LOAD = "server-side/load";

/** The export of `SERVER_LOAD` loading `revision`'s entry `file` (`server-side/table`, `serverSideFile`). */
export function serverLoaderName(revision: string, file: string): string {
  // 2026-07-28, server-side/params/notifications.tools.list_changed -> paramsNotificationsToolsListChanged_2026_07_28
  const words = file.slice("server-side/".length).split(/[/._-]+/);
  const name = words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join("");
  return `${name}_${revision.replaceAll("-", "_")}`;
}

/**
 * Path, in a revision's folder and without extension, of the entry re-exporting the params or
 * result validator of `method` that a server receives: its name with `/` spelled `.`.
 */
export function serverSideFile(what: "params" | "results", method: string): string {
  return `server-side/${what}/${method.replaceAll("/", ".")}`;
}

/**
 * The ABI declaration and check of a file that links the runtime (imported as `runtime`): the same
 * text, with one message, in `server.ts`, `client.ts` and `bindings.ts`, since a program may load
 * any one of them alone. `exported`: `bindings.ts` states its ABI as an export; the server and the
 * client do not, so a module re-exporting both has no conflicting names.
 */
export function abiCheck(exported: boolean): string {
  return renderTemplate("fragments/abi-check.ts", { abiVersion: String(RUNTIME_ABI), exported }).trimEnd();
}
