// Validators of tool schemas: real ES modules importing only @mcpgen/runtime/abi/v8, typed as the
// tool's generated types, agreeing with in-memory ajv, and robust to what real schemas contain.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Ajv2020 } from "ajv/dist/2020.js";
import { loadManifest, parseManifest } from "../../generator/load/manifest.js";
import { buildServerModel } from "../../generator/model/build-server.js";
import { emitManifestTypes } from "../../generator/emit/manifest/types.js";
import { emitManifestValidators, OPTIONS } from "../../generator/emit/manifest/validators.js";
import { Ajv } from "ajv";
import type { ServerModel } from "../../generator/model/server-ir.js";
import { removeDir, tempDir, writeTranspiled } from "../generator/validators-fixture.js";
import { fixture, root, tscStrict } from "./helpers.js";

function emitAll(model: ServerModel) {
  const validators = emitManifestValidators(model);
  return { files: [emitManifestTypes(model).file, ...validators.files], problems: validators.problems };
}

function run(dir: string, script: string): unknown {
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(join(dir, "consumer.mjs"), script);
  const r = spawnSync(process.execPath, [join(dir, "consumer.mjs")], { encoding: "utf8", timeout: 30_000 });
  assert.is(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test("validators: ES modules that accept and reject tool arguments and results", () => {
  const model = buildServerModel(loadManifest(join(root, "examples", "weather", "mcp.manifest.json")));
  const { files, problems } = emitAll(model);
  assert.equal(problems, []);
  assert.equal(
    files.map((f) => f.path),
    ["types.ts", "tools.ajv.ts", "tools.all-errors.ajv.ts", "tools.defaults.ts", "validators.ts", "tool-validators.ts"],
  );
  for (const f of files.filter((f) => f.path.endsWith(".ajv.ts"))) {
    assert.not.match(f.contents, /require\(/);
    // all-errors modules load by a dynamic import: they take the small all-errors part of the ABI
    const entry = f.path.includes("all-errors") ? "abi/v8/all-errors" : "abi/v8";
    assert.ok(f.contents.includes(`from "@mcpgen/runtime/${entry}";`), f.path);
  }
  const dir = tempDir("manifest-validators-");
  try {
    writeTranspiled(dir, files);
    const out = run(
      dir,
      `
import { toolValidators, validateGetForecastInput as v, validateGetForecastOutput as o } from "./validators.js";
const results = {
  ok: v({ location: { city: "Paris" }, days: 3 }),
  missing: v({ days: 3 }),
  missingError: v.errors?.[0]?.keyword,
  wrongType: v({ location: { city: "Paris" }, days: "3" }),
  wrongTypePath: v.errors?.[0]?.instancePath,
  extra: v({ location: { city: "Paris", zip: "1" } }),
  range: v({ location: { city: "Paris" }, days: 8 }),
  pattern: v({ location: { city: "Paris", country: "fr" } }),
  outputOk: o({ city: "Paris", units: "metric", days: [{ date: "2026-01-01", summary: "sun", high: 3, low: 1, hours: [{ hour: 1, temperature: 2, wind: { speed: 3, direction: "N" } }] }] }),
  outputBad: o({ city: "Paris", units: "metric", days: [{ date: "2026-01-01", summary: "sun", high: 3, low: 1, hours: [{ hour: 1, temperature: 2, wind: { speed: 3, direction: "UP" } }] }] }),
  outputBadPath: o.errors?.[0]?.instancePath,
  setAlertOutput: toolValidators.set_alert.output,
  oneOf: toolValidators.set_alert.input({ city: "x", condition: { kind: "wind", speedAbove: 3 } }),
  oneOfBad: toolValidators.set_alert.input({ city: "x", condition: { kind: "wind", above: 3 } }),
};
console.log(JSON.stringify(results));
`,
    );
    assert.equal(out, {
      ok: true,
      missing: false,
      missingError: "required",
      wrongType: false,
      wrongTypePath: "/days",
      extra: false,
      range: false,
      pattern: false,
      outputOk: true,
      outputBad: false,
      outputBadPath: "/days/0/hours/0/wind/direction",
      setAlertOutput: null,
      oneOf: true,
      oneOfBad: false,
    });
  } finally {
    removeDir(dir);
  }
});

test("tool-validators: the runtime's checks report every failure, and refuse a value with too many without throwing", () => {
  const model = buildServerModel(loadManifest(join(root, "examples", "weather", "mcp.manifest.json")));
  const dir = tempDir("manifest-tool-validators-");
  try {
    writeTranspiled(dir, emitAll(model).files);
    const out = run(
      dir,
      `
import { allErrorsValidators, toolValidators } from "./tool-validators.js";
import { validateGetForecastInput, applySearchStationsInputDefaults } from "./validators.js";
const check = toolValidators.get_forecast.input;
const bad = { location: { city: "", country: "fr" }, days: "3" };
const extra = { location: { city: "Paris" } };
for (let i = 0; i <= 1000; i++) extra.location["k" + i] = i;
let thrown;
try {
  allErrorsValidators.get_forecast.input(extra);
} catch (e) {
  thrown = e.name;
}
const results = {
  ok: check({ location: { city: "Paris" }, days: 3 }),
  okErrors: check.errors,
  bad: check(bad),
  badPaths: check.errors.map((e) => e.instancePath),
  first: validateGetForecastInput(bad),
  firstPaths: validateGetForecastInput.errors.map((e) => e.instancePath),
  tooMany: check(extra),
  tooManyCount: check.errors.length,
  thrown,
  output: toolValidators.get_forecast.output({ city: 1 }),
  outputNull: toolValidators.set_alert.output,
  defaults: toolValidators.search_stations.defaults === applySearchStationsInputDefaults,
};
console.log(JSON.stringify(results));
`,
    );
    assert.equal(out, {
      ok: true,
      okErrors: null,
      bad: false,
      badPaths: ["/location/city", "/location/country", "/days"],
      first: false,
      firstPaths: ["/location/city"],
      tooMany: false,
      tooManyCount: 1001,
      thrown: "TooManyIssues",
      output: false,
      outputNull: null,
      defaults: true,
    });
  } finally {
    removeDir(dir);
  }
});

test("validators: agree with in-memory Ajv2020 on a corpus of arguments", () => {
  const model = buildServerModel(loadManifest(fixture("schema-features")));
  const tool = model.tools.find((t) => t.name === "get_forecast")!;
  const corpus: unknown[] = [
    { location: { city: "a" } },
    { location: { city: "a", coordinates: { lat: 1, lon: 2 } }, units: "kelvin", note: null },
    { location: { city: "a", coordinates: { lat: 1 } } },
    { location: { city: 1 } },
    { location: {} },
    { location: { city: "a" }, days: 0 },
    { location: { city: "a" }, units: "rankine" },
    { location: { city: "a" }, extra: true },
    { location: { city: "a" }, note: 3 },
    null,
    [],
    "x",
  ];
  // the emitted code runs on ajv's draft-07 engine; the reference is the 2020-12 engine
  const expected = corpus.map((c) =>
    new Ajv2020({ strict: false, validateFormats: false, ownProperties: true }).compile(tool.inputSchema as object)(c),
  );
  const dir = tempDir("manifest-validators-diff-");
  try {
    writeTranspiled(dir, emitAll(model).files);
    const out = run(
      dir,
      `import { validateGetForecastInput as v } from "./validators.js";\nconsole.log(JSON.stringify(${JSON.stringify(corpus)}.map((c) => v(c))));`,
    );
    assert.equal(out, expected);
    assert.ok(expected.includes(true) && expected.includes(false));
  } finally {
    removeDir(dir);
  }
});

test("validators: typed facade compiles under tsc --strict and narrows to the tool types", () => {
  const model = buildServerModel(loadManifest(fixture("schema-features")));
  const { files } = emitAll(model);
  const dir = tempDir("manifest-validators-tsc-");
  try {
    for (const f of files) writeFileSync(join(dir, f.path), f.contents);
    writeFileSync(
      join(dir, "use.ts"),
      `import type { GetForecastInput, GetForecastOutput } from "./types.js";
import { validateGetForecastInput, toolValidators } from "./validators.js";
export function f(x: unknown): string {
  if (validateGetForecastInput(x)) {
    const input: GetForecastInput = x;
    // @ts-expect-error narrowed to the input type, not the output type
    const output: GetForecastOutput = x;
    return input.location.city + String(output);
  }
  return String(toolValidators["get_forecast"]?.output);
}
`,
    );
    const out = tscStrict(dir, [...files.map((f) => f.path), "use.ts"]);
    assert.is(out.code, 0, out.output);
  } finally {
    removeDir(dir);
  }
});

test("validators: dangling and external $refs, invalid patterns and fallback schemas never stop generation", () => {
  const manifest = {
    name: "x",
    version: "1",
    revisions: ["2026-07-28"],
    tools: [
      {
        name: "dangling",
        inputSchema: {
          type: "object",
          properties: { a: { $ref: "#/$defs/nope" }, b: { $ref: "https://example.com/s.json" } },
        },
      },
      {
        name: "bad_regex",
        inputSchema: {
          type: "object",
          properties: { a: { type: "string", pattern: "([a-z" } },
          patternProperties: { "(": { type: "string" } },
        },
      },
      { name: "empty", inputSchema: {} },
      {
        name: "drafty",
        inputSchema: {
          $schema: "http://json-schema.org/draft-07/schema#",
          type: "object",
          properties: { t: { type: "array", items: [{ type: "string" }], additionalItems: false } },
        },
      },
      {
        name: "modern",
        inputSchema: {
          type: "object",
          properties: { t: { type: "array", prefixItems: [{ type: "string" }], items: false } },
          unevaluatedProperties: false,
        },
      },
      {
        name: "proto",
        inputSchema: { type: "object", properties: { ["__proto__"]: { type: "string" } }, required: ["__proto__"] },
      },
    ],
  };
  const model = buildServerModel(parseManifest(JSON.stringify(manifest), "m.json"));
  const { files, problems } = emitAll(model);
  assert.equal(
    problems.map((p) => p.pointer),
    ["/tools/1/inputSchema/properties/a/pattern", "/tools/1/inputSchema/patternProperties/("],
  );
  assert.equal(
    files.map((f) => f.path),
    [
      "types.ts",
      "tools.ajv.ts",
      "tools.2020.ajv.ts",
      "tools.all-errors.ajv.ts",
      "tools.2020.all-errors.ajv.ts",
      "validators.ts",
      "tool-validators.ts",
    ],
  );
  const dir = tempDir("manifest-validators-robust-");
  try {
    writeTranspiled(dir, files);
    const out = run(
      dir,
      `
import { toolValidators as t } from "./validators.js";
console.log(JSON.stringify([
  t.dangling.input({ a: 1, b: 2 }),
  t.bad_regex.input({ a: "zz", "(": 1 }),
  t.empty.input({ anything: 1 }),
  t.empty.input([]),
  t.drafty.input({ t: ["a"] }),
  t.drafty.input({ t: ["a", "b"] }),
  t.proto.input(JSON.parse('{"__proto__": "x"}')),
  t.proto.input({}),
  t.modern.input({ t: ["a"] }),
  t.modern.input({ t: ["a", "b"] }),
  t.modern.input({ t: ["a"], other: 1 }),
]));`,
    );
    assert.equal(out, [true, true, true, false, true, false, true, false, true, false, false]);
  } finally {
    removeDir(dir);
  }
});

test("validators: the typed facade and the runtime's tool validators are prettier fixpoints", async () => {
  const prettier = (await import("prettier")).default;
  for (const name of ["schema-features", "tools-list-pasted", "broken-schemas"]) {
    const { files } = emitManifestValidators(
      buildServerModel(loadManifest(fixture(name), undefined, { lenient: true })),
    );
    for (const path of ["validators.ts", "tool-validators.ts"]) {
      const facade = files.find((f) => f.path === path)!;
      assert.fixture(
        await prettier.format(facade.contents, { parser: "typescript" }),
        facade.contents,
        `${name} ${path}`,
      );
    }
  }
});

test("validators: a schema ajv refuses is validated as an object, with a warning naming it", () => {
  const manifest = {
    name: "x",
    version: "1",
    tools: [
      {
        name: "loop",
        inputSchema: { type: "object", properties: { a: { $ref: "#/$defs/a" } }, $defs: { a: { $ref: "#/$defs/a" } } },
      },
      {
        name: "ids",
        inputSchema: {
          type: "object",
          properties: { a: { $id: "http://x.example/a" }, b: { $id: "http://x.example/a" } },
        },
      },
      { name: "fine", inputSchema: { type: "object", properties: { a: { type: "string" } } } },
    ],
  };
  const { problems, files } = emitAll(buildServerModel(parseManifest(JSON.stringify(manifest), "m.json")));
  assert.equal(problems.map((p) => p.pointer).sort(), ["/tools/0/inputSchema", "/tools/1/inputSchema"]);
  assert.match(problems[0]!.message, /^ajv cannot compile this schema \(.+\); validated as \{"type": "object"\}$/);
  assert.ok(files.some((f) => f.path === "tools.ajv.ts" && f.contents.includes("fineInput")));
});

test("validators: the compacted module reports exactly ajv's errors (paths, keywords, params, messages)", () => {
  const model = buildServerModel(loadManifest(join(root, "examples/weather/mcp.manifest.json")));
  const corpus: unknown[] = [
    {},
    null,
    { location: { city: "" } },
    { location: { city: "a", country: "usa" }, days: 9 },
    { location: { city: "a" }, units: "kelvin" },
    {
      city: "x",
      units: "metric",
      days: [{ date: "d", summary: "s", high: 1, low: 0, hours: [{ hour: 24, temperature: 1 }] }],
    },
    {
      city: "x",
      units: "metric",
      days: [
        {
          date: "d",
          summary: "s",
          high: 1,
          low: 0,
          hours: [{ hour: 1, temperature: 1, wind: { speed: 1, direction: "Q" } }],
        },
      ],
    },
    { near: { lat: 91, lon: 0 } },
    { stations: [{ id: "a", name: "b", elevation: "high", sensors: [] }] },
    { city: "x", condition: { kind: "rain" } },
    { city: "x", condition: { kind: "wind", speedAbove: 3 }, labels: { a: 1 } },
  ];
  const schemas: [string, string, object][] = [];
  for (const t of model.tools) {
    schemas.push([t.name, "input", t.inputSchema as object]);
    if (t.outputSchema) schemas.push([t.name, "output", t.outputSchema as object]);
  }
  const expected = schemas.map(([, , schema]) => {
    const v = new Ajv({ ...OPTIONS }).compile(schema);
    return corpus.map((c) => [v(c), v.errors ?? null]);
  });
  const dir = tempDir("manifest-validators-errors-");
  try {
    writeTranspiled(dir, emitAll(model).files);
    const out = run(
      dir,
      `import { toolValidators } from "./validators.js";\nconst corpus = ${JSON.stringify(corpus)};\n` +
        `console.log(JSON.stringify(${JSON.stringify(schemas.map(([n, r]) => [n, r]))}.map(([n, r]) => corpus.map((c) => { const v = toolValidators[n][r]; return [v(c), v.errors ?? null]; }))));`,
    );
    assert.equal(out, expected);
    assert.ok(expected.flat().some(([ok]) => ok === false));
  } finally {
    removeDir(dir);
  }
});

test("validators: tools with identical schemas share one function, with the same results and errors", () => {
  const schema = {
    type: "object",
    properties: { n: { type: "integer", minimum: 1 } },
    required: ["n"],
    additionalProperties: false,
  };
  const manifest = {
    name: "x",
    version: "1",
    revisions: ["2026-07-28"],
    tools: [
      { name: "one", inputSchema: schema },
      {
        name: "two",
        description: "same schema, another annotation",
        inputSchema: { ...schema, description: "differs only here" },
      },
      { name: "three", inputSchema: { ...schema, required: [] } },
    ],
  };
  const { files } = emitAll(buildServerModel(parseManifest(JSON.stringify(manifest), "m.json")));
  const module = files.find((f) => f.path === "tools.ajv.ts")!.contents;
  assert.is(module.match(/^function validate\d+\(|[;}]function validate\d+\(/gm)?.length, 2);
  const dir = tempDir("manifest-validators-shared-");
  try {
    writeTranspiled(dir, files);
    const corpus = [{ n: 1 }, { n: 0 }, {}, { n: 1, m: 2 }, null];
    const out = run(
      dir,
      `import { toolValidators as t } from "./validators.js";\n` +
        `console.log(JSON.stringify(["one", "two", "three"].map((n) => ${JSON.stringify(corpus)}.map((c) => [t[n].input(c), t[n].input.errors]))));`,
    ) as unknown[][];
    assert.equal(out[0], out[1]);
    assert.not.equal(out[0], out[2]);
  } finally {
    removeDir(dir);
  }
});

test.run();
