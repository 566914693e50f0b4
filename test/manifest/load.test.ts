import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadManifest, parseManifest } from "../../generator/load/manifest.js";
import { InputError, formatDiagnostic, type Diagnostic } from "../../generator/load/diagnostics.js";
import { parseUriTemplate } from "../../generator/load/uri-template.js";
import { buildServerModel } from "../../generator/model/build-server.js";
import { generateManifest } from "../../generator/render/manifest.js";
import { formatSource } from "../../generator/print/format.js";
import { fixture } from "./helpers.js";

function errorsOf(fn: () => unknown): Diagnostic[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof InputError) return e.diagnostics.filter((d) => d.severity === "error");
    throw e;
  }
  assert.unreachable("expected an InputError");
  return [];
}

test("load: every schema and semantic error is reported, each with file, pointer, line and expectation", () => {
  const errors = errorsOf(() => loadManifest(fixture("invalid-multiple"), "mcp.manifest.json"));
  const expected = JSON.parse(readFileSync(fixture("invalid-multiple", "expected-errors.json"), "utf8")) as string[];
  assert.equal(
    errors.map((d) => `${d.pointer === "" ? "(root)" : d.pointer}: ${d.message}`),
    expected,
  );
  for (const d of errors) {
    assert.is(d.file, "mcp.manifest.json");
    assert.type(d.line, "number");
  }
  assert.is(formatDiagnostic(errors[1]!), 'mcp.manifest.json:5:5: error: /tools/1: missing required property "name"');
});

test("load: invalid JSON gives line and column", () => {
  const errors = errorsOf(() => parseManifest('{\n  "name": "x",\n  "version": 1,,\n}', "m.json"));
  assert.is(errors.length, 1);
  assert.is(errors[0]!.line, 3);
  assert.is(errors[0]!.column, 16);
  assert.match(errors[0]!.message, /invalid JSON/);
  const unterminated = errorsOf(() => parseManifest('{"name": "x', "m.json"));
  assert.match(unterminated[0]!.message, /unterminated string/);
});

test("load: missing file and non-object documents are clear errors", () => {
  assert.match(
    errorsOf(() => loadManifest("/nonexistent/mcp.manifest.json", "nope.json"))[0]!.message,
    /file not found/,
  );
  assert.match(errorsOf(() => parseManifest("[1]", "m.json"))[0]!.message, /expected a JSON object/);
});

test("load: duplicate JSON keys are errors (JSON.parse would hide them)", () => {
  const errors = errorsOf(() => parseManifest('{"name":"a","version":"1","name":"b"}', "m.json"));
  assert.equal(
    errors.map((d) => d.pointer),
    ["/name"],
  );
});

test("load: name collisions are errors naming both sources", () => {
  const errors = errorsOf(() => loadManifest(fixture("name-collision"), "mcp.manifest.json"));
  const messages = errors.map((d) => d.message);
  assert.ok(
    messages.includes(
      '/tools/0/name "get_forecast" and /tools/3/name "get-forecast" both map to the tool identifier "getForecast"; rename one of them',
    ),
    messages.join("\n"),
  );
  assert.ok(messages.includes('duplicate name: /tools/1/name "list_alerts" and /tools/4/name "list_alerts"'));
  assert.ok(messages.some((m) => m.includes('"my_doc"') && m.includes('"myDoc"')));
  // a prompt named like a tool is fine; "get.forecast2" is its own identifier
  assert.is(errors.length, 3);
});

test("load: a tools/list result pasted as is is valid and keeps every field", () => {
  const loaded = loadManifest(fixture("tools-list-pasted"));
  assert.equal(
    loaded.diagnostics.filter((d) => d.severity === "error"),
    [],
  );
  const model = buildServerModel(loaded);
  assert.equal(
    model.tools.map((t) => t.name),
    ["add", "annotatedMessage", "echo", "getResourceLinks", "longRunningOperation"],
  );
  const add = model.tools.find((t) => t.name === "add")!;
  assert.equal(add.definition.execution, { taskSupport: "optional" });
  assert.equal(add.definition._meta, { "com.example/category": "math" });
  assert.is(add.outputType, "AddOutput");
  assert.is(model.capabilities.tools !== undefined, true);
});

test("load: a tool schema that is not valid JSON Schema is an error, naming --lenient", () => {
  const errors = errorsOf(() => loadManifest(fixture("broken-schemas"), "mcp.manifest.json"));
  assert.equal(
    errors.filter((d) => d.severity === "error").map((d) => `${d.pointer}: ${d.message}`),
    [
      '/tools/1/inputSchema/properties/a/type: not a valid JSON Schema: must be equal to one of the allowed values ("array", "boolean", "integer", "null", "number", "object", "string") (--lenient makes this a warning and types the inputSchema as Record<string, unknown>)',
      "/tools/6/inputSchema/required: not a valid JSON Schema: must be array (--lenient makes this a warning and types the inputSchema as Record<string, unknown>)",
    ],
  );
});

test("load (--lenient): broken or empty tool schemas are warnings with pointers and a fallback, not errors", () => {
  const loaded = loadManifest(fixture("broken-schemas"), undefined, { lenient: true });
  const warnings = loaded.diagnostics.map((d) => `${d.severity} ${d.pointer}`);
  assert.equal(warnings, [
    "warning /tools/0/inputSchema",
    "warning /tools/1/inputSchema/properties/a/type",
    "warning /tools/2/inputSchema/type",
    "warning /tools/3/inputSchema/properties/a/$ref",
    "warning /tools/4/inputSchema/properties/a/$ref",
    "warning /tools/6/inputSchema/required",
  ]);
  assert.match(loaded.diagnostics[1]!.message, /; typed as Record<string, unknown> \(--lenient\)$/);
  assert.equal([...loaded.fallbackSchemas].sort(), [
    "/tools/0/inputSchema",
    "/tools/1/inputSchema",
    "/tools/2/inputSchema",
    "/tools/6/inputSchema",
  ]);
});

test("load: non-object outputSchema is an error only when a pre-2026 revision is spoken", () => {
  const text = (revisions: string[]) =>
    JSON.stringify({
      name: "x",
      version: "1",
      revisions,
      tools: [{ name: "t", inputSchema: { type: "object" }, outputSchema: { type: "array" } }],
    });
  assert.not.throws(() => parseManifest(text(["2026-07-28"]), "m.json"));
  const errors = errorsOf(() => parseManifest(text(["2025-11-25", "2026-07-28"]), "m.json"));
  assert.equal(
    errors.map((d) => d.pointer),
    ["/tools/0/outputSchema/type"],
  );
});

test("load: a root that only $refs an object definition is typed as that object (zod-to-json-schema style)", () => {
  const text = JSON.stringify({
    name: "x",
    version: "1",
    tools: [
      {
        name: "t",
        inputSchema: {
          $ref: "#/definitions/Args",
          definitions: { Args: { type: "object", properties: { a: { type: "string" } } } },
          $schema: "http://json-schema.org/draft-07/schema#",
        },
      },
    ],
  });
  const loaded = parseManifest(text, "m.json");
  assert.equal(
    loaded.diagnostics.map((d) => [d.severity, d.pointer]),
    [["warning", "/tools/0/inputSchema"]],
  );
  assert.equal([...loaded.fallbackSchemas], []);
});

test("load: unknown keys of mcpgen's own objects are errors with a suggestion", () => {
  const manifest = {
    name: "x",
    version: "1",
    descripton: "typo at the top",
    capabilities: { tools: { listchanged: true } },
    tools: [
      {
        name: "t",
        inputSchema: { type: "object" },
        auth: { scope: ["a"] },
        examples: [{ arguments: {}, iserror: true }],
      },
    ],
    resources: [{ uri: "x://a", name: "a", cache: { ttlms: 5 } }],
  };
  const errors = errorsOf(() => parseManifest(JSON.stringify(manifest), "m.json"));
  assert.equal(
    errors.map((d) => `${d.pointer}: ${d.message}`),
    [
      '/descripton: unknown property "descripton" (did you mean "description"?)',
      '/capabilities/tools/listchanged: unknown property "listchanged" (did you mean "listChanged"?)',
      '/tools/0/auth/scope: unknown property "scope" (did you mean "scopes"?)',
      '/tools/0/examples/0/iserror: unknown property "iserror" (did you mean "isError"?)',
      '/resources/0/cache/ttlms: unknown property "ttlms" (did you mean "ttlMs"?)',
    ],
  );
  const far = errorsOf(() => parseManifest(JSON.stringify({ name: "x", version: "1", zzz: 1 }), "m.json"));
  assert.equal(
    far.map((d) => d.message),
    ['unknown property "zzz" (not allowed here)'],
  );
});

test("load: unknown keys of MCP wire objects are accepted (MCP admits them); a near miss of a known key is a warning", () => {
  const manifest = {
    name: "x",
    version: "1",
    tools: [
      {
        name: "t",
        inputSchema: { type: "object" },
        outputschema: {},
        annotations: { readOnly: true, category: "fs", conditions: ["a"] },
        execution: { tasksupport: "optional" },
        "x-vendor": 1,
      },
    ],
    resources: [
      {
        uri: "x://a",
        name: "a",
        mimetype: "text/plain",
        annotations: { priorty: 1 },
        icons: [{ src: "https://x/i.png", size: ["48x48"] }],
      },
    ],
    prompts: [{ name: "p", arguments: [{ name: "who", requried: true, default: "me" }] }],
  };
  const loaded = parseManifest(JSON.stringify(manifest), "m.json");
  assert.equal(
    loaded.diagnostics.map((d) => `${d.severity} ${d.pointer}: ${d.message}`),
    [
      `warning /tools/0/outputschema: "outputschema" is not a field of MCP's Tool (did you mean "outputSchema"?); MCP admits other properties, so it is published as given`,
      `warning /tools/0/annotations/readOnly: "readOnly" is not a field of MCP's ToolAnnotations (did you mean "readOnlyHint"?); MCP admits other properties, so it is published as given`,
      `warning /tools/0/execution/tasksupport: "tasksupport" is not a field of MCP's ToolExecution (did you mean "taskSupport"?); MCP admits other properties, so it is published as given`,
      `warning /resources/0/mimetype: "mimetype" is not a field of MCP's Resource (did you mean "mimeType"?); MCP admits other properties, so it is published as given`,
      `warning /resources/0/annotations/priorty: "priorty" is not a field of MCP's Annotations (did you mean "priority"?); MCP admits other properties, so it is published as given`,
      `warning /resources/0/icons/0/size: "size" is not a field of MCP's Icon (did you mean "sizes"?); MCP admits other properties, so it is published as given`,
      `warning /prompts/0/arguments/0/requried: "requried" is not a field of MCP's PromptArgument (did you mean "required"?); MCP admits other properties, so it is published as given`,
    ],
  );
  // kept as given: nothing is dropped or renamed
  assert.equal(loaded.manifest, manifest);
  // --lenient changes nothing here (it is about tool schemas)
  assert.equal(parseManifest(JSON.stringify(manifest), "m.json", { lenient: true }).diagnostics.length, 7);
});

test("load: a template written under resources (or a uri under resourceTemplates) says where it belongs", () => {
  const text = JSON.stringify({
    name: "x",
    version: "1",
    resources: [
      { uri: "weather://forecast/{city}", name: "forecast" },
      { uriTemplate: "x://{a}", uri: "x://a", name: "b" },
    ],
    resourceTemplates: [{ uri: "x://c", uriTemplate: "x://{c}", name: "c" }],
  });
  assert.equal(
    errorsOf(() => parseManifest(text, "m.json")).map((d) => `${d.pointer}: ${d.message}`),
    [
      '/resources/0/uri: "weather://forecast/{city}" is a URI template; declare it under "resourceTemplates" as "uriTemplate" (its variables become typed handler arguments)',
    ],
  );
  const valid = text.replace("{city}", "paris");
  assert.equal(
    parseManifest(valid, "m.json").diagnostics.map((d) => `${d.severity} ${d.pointer}: ${d.message}`),
    [
      'warning /resources/1/uriTemplate: unknown property "uriTemplate" in a resource; a template belongs under "resourceTemplates" (static resources have "uri") (published as given)',
      'warning /resourceTemplates/0/uri: unknown property "uri" in a resource template; templates have "uriTemplate", a static resource belongs under "resources" (published as given)',
    ],
  );
});

test("load: `required` naming a property that `properties` does not declare is a warning with a suggestion", () => {
  const schema = {
    type: "object",
    properties: {
      city: { type: "string" },
      when: { type: "object", properties: { day: { type: "string" } }, required: ["dya"] },
    },
    required: ["cty", "city"],
  };
  const composed = {
    type: "object",
    properties: { a: { type: "string" } },
    allOf: [{ properties: { b: { type: "string" } } }],
    required: ["b"],
  };
  const loaded = parseManifest(
    JSON.stringify({
      name: "x",
      version: "1",
      tools: [
        { name: "t", inputSchema: schema },
        { name: "u", inputSchema: composed },
      ],
    }),
    "m.json",
  );
  assert.equal(
    loaded.diagnostics.map((d) => `${d.severity} ${d.pointer}: ${d.message}`),
    [
      'warning /tools/0/inputSchema/properties/when/required/0: required names "dya", which "properties" does not declare (did you mean "day"?)',
      'warning /tools/0/inputSchema/required/0: required names "cty", which "properties" does not declare (did you mean "city"?)',
    ],
  );
});

test("load: tool name guidance is a warning", () => {
  const loaded = parseManifest(
    JSON.stringify({ name: "x", version: "1", tools: [{ name: "bad name!", inputSchema: { type: "object" } }] }),
    "m.json",
  );
  assert.equal(
    loaded.diagnostics.map((d) => d.pointer),
    ["/tools/0/name"],
  );
});

test("uri templates: variables and syntax errors", () => {
  const ok = parseUriTemplate("weather://forecast/{city}/{day}{?units,lang}{/path*}{+rest:3}");
  assert.ok(ok.ok);
  if (ok.ok)
    assert.equal(
      ok.variables.map((v) => `${v.operator}${v.name}${v.explode ? "*" : ""}${v.prefix ?? ""}`),
      ["city", "day", "?units", "?lang", "/path*", "+rest3"],
    );
  for (const bad of ["x://{", "x://{}", "x://{a b}", "x://{=a}", "x://{a:0}", "x://a b", "x://%zz"]) {
    assert.is(parseUriTemplate(bad).ok, false, bad);
  }
});

test("uri templates: shapes that cannot be matched back are warnings", () => {
  const loaded = parseManifest(
    JSON.stringify({
      name: "x",
      version: "1",
      resourceTemplates: [
        { name: "a", uriTemplate: "x://{/a,b}/here" },
        { name: "b", uriTemplate: "x://{id:3}" },
        { name: "c", uriTemplate: "x://{a}/{+rest}{?q,limit}" },
      ],
    }),
    "m.json",
  );
  assert.equal(
    loaded.diagnostics.map((d) => [d.pointer, d.message]),
    [
      [
        "/resourceTemplates/0/uriTemplate",
        "resources/read cannot route by this template reliably: {/a,b} cannot be split back into its variables; write {/a}{/b} or separate them with literals",
      ],
      [
        "/resourceTemplates/1/uriTemplate",
        'resources/read cannot route by this template reliably: "id:3" keeps only a prefix, so a matched URI yields the prefix, not the value',
      ],
    ],
  );
});

test("model: identifiers, template variables, capabilities and revisions", () => {
  const model = buildServerModel(loadManifest(fixture("schema-features")));
  const forecast = model.tools.find((t) => t.name === "get_forecast")!;
  assert.equal(forecast.ids, { member: "getForecast", binding: "getForecast", type: "GetForecast" });
  assert.is(forecast.inputType, "GetForecastInput");
  const search = model.resourceTemplates.find((t) => t.name === "search")!;
  assert.equal(
    search.variables.map((v) => [v.name, v.optional]),
    [
      ["q", true],
      ["limit", true],
    ],
  );
  assert.equal(model.revisions, ["2026-07-28", "2025-11-25", "2025-06-18"]);
  assert.equal(model.capabilities, {
    tools: { listChanged: true },
    resources: { subscribe: true },
    prompts: {},
    logging: {},
    completions: {},
  });
  assert.is(model.pageSize, 20);
  const prompt = model.prompts.find((p) => p.name === "summarise-week")!;
  assert.equal(
    prompt.arguments.map((a) => [a.name, a.required]),
    [
      ["city", true],
      ["style", false],
    ],
  );
  assert.equal(
    model.tools.map((t) => t.name),
    model.tools.map((t) => t.name).sort(),
  );
});

test("model: revisions default to every known one, newest first", () => {
  const model = buildServerModel(parseManifest(JSON.stringify({ name: "x", version: "1" }), "m.json"));
  assert.equal(model.revisions, ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
  assert.equal(model.capabilities, {});
});

test("cache: settings reach the model and definition.ts; bad values are errors naming the pointer", async () => {
  const manifest = {
    name: "x",
    version: "1",
    cache: { ttlMs: 5000, scope: "private" },
    resources: [{ uri: "a://r", name: "r", cache: { ttlMs: 0 } }],
    resourceTemplates: [{ uriTemplate: "a://t/{id}", name: "t", cache: { scope: "public" } }],
  };
  const model = buildServerModel(parseManifest(JSON.stringify(manifest), "m.json"));
  assert.equal(model.cache, {
    ttlMs: 5000,
    scope: "private",
    resources: { "a://r": { ttlMs: 0 } },
    resourceTemplates: { t: { scope: "public" } },
  });
  assert.is(buildServerModel(parseManifest(JSON.stringify({ name: "x", version: "1" }), "m.json")).cache, null);
  const dir = mkdtempSync(join(tmpdir(), "mcpgen-cache-"));
  let files: { path: string; contents: string }[];
  try {
    writeFileSync(join(dir, "m.json"), JSON.stringify(manifest));
    files = generateManifest(join(dir, "m.json"), { display: "m.json" }).files;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const definition = await formatSource("definition.ts", files.find((f) => f.path === "definition.ts")!.contents);
  assert.match(
    definition,
    /cache: \{\n    ttlMs: 5000,\n    scope: "private",\n    resources: \{\n      "a:\/\/r": \{\n        ttlMs: 0,/,
  );
  const lists = files.find((f) => f.path === "lists.ts")!.contents;
  assert.not.match(lists, /cache/, "caching settings are not published");
  for (const [cache, pointer] of [
    [{ ttlMs: -1 }, "/cache/ttlMs"],
    [{ scope: "shared" }, "/cache/scope"],
    [{ ttl: 1 }, "/cache/ttl"],
  ] as const) {
    const errors = errorsOf(() => parseManifest(JSON.stringify({ name: "x", version: "1", cache }), "m.json"));
    assert.ok(
      errors.some((e) => e.pointer === pointer),
      `${JSON.stringify(cache)}: ${errors.map((e) => e.pointer).join(", ")}`,
    );
  }
});

test("load: clientRequests names what handlers ask the client; anything else is an error with its pointer", () => {
  const manifest = (clientRequests: unknown) => JSON.stringify({ name: "x", version: "1", clientRequests });
  const errors = errorsOf(() => parseManifest(manifest(["elicitation", "pings"]), "m.json"));
  assert.equal(
    errors.map((d) => d.pointer),
    ["/clientRequests/1"],
  );
  assert.match(errors[0]!.message, /elicitation/);
  assert.equal(
    errorsOf(() => parseManifest(manifest(["roots", "roots"]), "m.json")).map((d) => d.pointer),
    ["/clientRequests"],
  );
  const model = buildServerModel(parseManifest(manifest(["sampling", "elicitation"]), "m.json"));
  assert.equal(model.clientRequests, ["elicitation", "sampling"]);
  assert.is(
    buildServerModel(parseManifest(JSON.stringify({ name: "x", version: "1" }), "m.json")).clientRequests,
    null,
  );
});

test.run();
