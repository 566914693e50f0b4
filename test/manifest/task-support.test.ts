// `execution.taskSupport`: validated by the manifest schema with a pointer, carried into the
// definition's `toolTasks` (the runtime's only source, since a 2026-07-28 Tool has no
// `execution`), and published as declared where the revision's Tool has the field.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { parseManifest } from "../../generator/load/manifest.js";
import { InputError } from "../../generator/load/diagnostics.js";
import { buildServerModel } from "../../generator/model/build-server.js";
import { emitDefinition } from "../../generator/emit/manifest/definition.js";
import { emitServer } from "../../generator/emit/manifest/server.js";

const manifest = (execution: unknown): string =>
  JSON.stringify({
    name: "jobs",
    version: "1.0.0",
    tools: [
      { name: "quick", inputSchema: { type: "object" } },
      { name: "batch", inputSchema: { type: "object" }, execution },
      { name: "never", inputSchema: { type: "object" }, execution: { taskSupport: "forbidden" } },
    ],
  });

test("definition.toolTasks lists only tools that may run as tasks", () => {
  const model = buildServerModel(parseManifest(manifest({ taskSupport: "required" }), "m.json"));
  assert.equal(Object.fromEntries(model.tools.map((t) => [t.name, t.taskSupport])), {
    quick: "forbidden",
    batch: "required",
    never: "forbidden",
  });
  const def = emitDefinition(model).contents;
  assert.match(def, /toolTasks: \{\n\s+batch: "required",\n\s+\}/);
  assert.not.match(def, /never: "forbidden"/);
});

test("no task tools: no toolTasks", () => {
  const model = buildServerModel(parseManifest(manifest({}), "m.json"));
  assert.not.match(emitDefinition(model).contents, /toolTasks/);
});

const TASKS_IMPORT = /import\("@mcpgen\/runtime\/tasks\/server"\)/;

test("only the server of a manifest with task tools imports the task machinery; the shared definition never does", () => {
  const tasks = buildServerModel(parseManifest(manifest({ taskSupport: "optional" }), "m.json"));
  const server = emitServer(tasks).contents;
  assert.match(server, TASKS_IMPORT);
  assert.match(server, /createMcpServerWith\(serverDefinition,/);
  assert.not.match(emitDefinition(tasks).contents, TASKS_IMPORT);
  const none = buildServerModel(parseManifest(manifest({}), "m.json"));
  assert.not.match(emitServer(none).contents, TASKS_IMPORT);
  assert.match(emitServer(none).contents, /createMcpServerWith\(definition,/);
});

test("an unknown taskSupport is an error at its pointer", () => {
  let errors: string[] = [];
  try {
    parseManifest(manifest({ taskSupport: "sometimes" }), "m.json");
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    errors = e.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.pointer}: ${d.message}`);
  }
  assert.ok(
    errors.some((m) => m.startsWith("/tools/1/execution/taskSupport")),
    errors.join("\n"),
  );
});

test.run();
