// The validators emitter: what it emits for every bundled revision, how it normalises schemas for
// ajv's draft-07 engine, and what it refuses.
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as abi from "@mcpgen/runtime/abi/v8";
import { McpgenError } from "../../generator/errors.js";
import { emitValidators } from "../../generator/emit/protocol/validators.js";
import { FORMAT_EXPORTS, FORMAT_NAMES } from "../../generator/emit/ajv-code.js";
import { normaliseSchema, SchemaNormaliseError } from "../../generator/emit/protocol/validators/normalise.js";
import type { ProtocolModel } from "../../generator/model/ir.js";
import { loadValidators, modelOf, REVISIONS } from "./validators-fixture.js";

const importSpecifiers = (source: string): string[] =>
  [...source.matchAll(/^\s*import\s[^;]*?from\s+"([^"]+)";/gm)].map((m) => m[1]!).sort();

for (const revision of REVISIONS) {
  test(`${revision}: real ESM importing only the runtime ABI and each other, one export per definition`, async () => {
    const model = modelOf(revision);
    const files = await emitValidators(model);
    const ajv = files.filter((f) => f.path.startsWith("validators/"));
    assert.equal(
      files
        .map((f) => f.path)
        .filter((p) => !p.startsWith("validators/") && !p.startsWith("server-side/"))
        .sort(),
      ["client-side.ts", "loaders.ts", "server-side.ts", "validators.ts"],
    );
    // The server's per-method entries: its table, and one file per loader server-side.ts lists.
    const serverSide = files.find((f) => f.path === "server-side.ts")!.contents;
    const [params, results] = serverSide.split(/\n  results: \{/) as [string, string];
    const entries = (text: string, what: string) =>
      [...text.matchAll(/^\s+"?([\w/]+)"?: \(\) =>/gm)].map(
        (m) => `server-side/${what}/${m[1]!.replaceAll("/", ".")}.ts`,
      );
    assert.equal(
      files
        .map((f) => f.path)
        .filter((p) => p.startsWith("server-side/"))
        .sort(),
      ["server-side/table.ts", ...entries(params, "params"), ...entries(results, "results")].sort(),
    );
    assert.ok(ajv.length > 10, `${ajv.length} validator modules`);
    const facade = files.find((f) => f.path === "validators.ts")!.contents;
    const siblings = new Set(ajv.map((f) => `./${f.path.slice("validators/".length).replace(/\.ts$/, ".js")}`));
    const edges = new Map<string, string[]>();
    for (const { path, contents: code } of ajv) {
      assert.not.match(code, /\brequire\s*\(/);
      assert.not.match(code, /module\.exports|exports\./);
      assert.not.match(code, /ajv\//);
      const imported = importSpecifiers(code);
      for (const s of imported) assert.ok(s === "@mcpgen/runtime/abi/v8" || siblings.has(s), `${path} imports ${s}`);
      edges.set(
        `./${path.slice("validators/".length).replace(/\.ts$/, ".js")}`,
        imported.filter((s) => siblings.has(s)),
      );
    }
    // Shared modules are grouped by which methods reach them, so their imports never form a cycle.
    const done = new Set<string>();
    const visit = (m: string, stack: string[]): void => {
      assert.not.ok(stack.includes(m), `import cycle ${[...stack, m].join(" -> ")}`);
      if (done.has(m)) return;
      for (const next of edges.get(m)!) visit(next, [...stack, m]);
      done.add(m);
    };
    for (const m of edges.keys()) visit(m, []);
    for (const s of importSpecifiers(facade))
      assert.ok(
        s === "./types.js" || s === "@mcpgen/runtime/abi/v8" || siblings.has(`./${s.slice("./validators/".length)}`),
        s,
      );
    for (const type of model.types) {
      assert.match(
        facade,
        new RegExp(`export const validate${type.name} =\\s+m\\d+\\.\\w+ as Validator<T\\.${type.name}>;`),
        `no typed validate${type.name}`,
      );
    }
    const code = ajv.map((f) => f.contents).join("\n");
    // The ABI helpers are reached through the runtime, never through ajv; a format through its own
    // export, so a bundle carries only the patterns its validators use.
    assert.match(code, /abi\.formatUri\b/);
    assert.not.match(code, /abi\.formats\b/);
    // Error sites go through the runtime's helpers with the path below the failing function, and no
    // call passes an instance path (the corpus tests check the errors are ajv's).
    assert.match(code, /return abi\.fail\(\s*validate\d+,\s*""/);
    assert.match(code, /return abi\.failWith\(\s*validate\d+,\s*\w+,\s*"\//);
    assert.not.match(code, /\binstancePath\b/);
  });

  test(`${revision}: each method's loader imports exactly the validator the binding uses`, async () => {
    const loaded = await loadValidators(revision);
    assert.equal(Object.keys(loaded.loaded.params).sort(), Object.keys(loaded.paramsValidators).sort());
    assert.equal(Object.keys(loaded.loaded.results).sort(), Object.keys(loaded.resultValidators).sort());
    for (const [m, v] of Object.entries(loaded.paramsValidators))
      assert.is(loaded.loaded.params[m], v, `params of ${m}`);
    for (const [m, v] of Object.entries(loaded.resultValidators))
      assert.is(loaded.loaded.results[m], v, `result of ${m}`);
  });

  test(`${revision}: params and result validators cover the method table`, async () => {
    const model = modelOf(revision);
    const loaded = await loadValidators(revision);
    const withParams = model.methods.filter((m) => m.paramsPointer !== null).map((m) => m.method);
    assert.equal(Object.keys(loaded.paramsValidators).sort(), [...withParams].sort());
    const requests = model.methods.filter((m) => m.kind === "request" && m.resultType !== null);
    assert.equal(Object.keys(loaded.resultValidators).sort(), requests.map((m) => m.method).sort());
    for (const m of requests) {
      if (m.resultPointer === `/${model.defsKey}/${m.resultType}`) {
        assert.is(loaded.resultValidators[m.method], loaded.validator(m.resultType!), m.method);
      }
    }
    // 2026-07-28 requests get a validator of their own: what is left of `_meta` once the runtime
    // checked it (validators-meta.test.ts), and `inputResponses` relaxed (below).
    for (const m of model.methods) {
      if (m.paramsType === null) continue;
      const own = revision === "2026-07-28" && m.kind === "request" && m.from === "client";
      if (own) assert.is.not(loaded.paramsValidators[m.method], loaded.validator(m.paramsType), m.method);
      else assert.is(loaded.paramsValidators[m.method], loaded.validator(m.paramsType), m.method);
    }
    assert.type(loaded.module.validateJSONRPCMessage, "function");
  });

  if (revision === "2026-07-28") {
    test(`${revision}: params validators take inputResponses as a map of objects, whatever each holds`, async () => {
      const loaded = await loadValidators(revision);
      const meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
      };
      for (const [method, type, params] of [
        ["tools/call", "CallToolRequestParams", { name: "t" }],
        ["prompts/get", "GetPromptRequestParams", { name: "p" }],
        ["resources/read", "ReadResourceRequestParams", { uri: "u://x" }],
      ] as const) {
        const relaxed = loaded.paramsValidators[method]!;
        const strict = loaded.validator(type);
        const malformed = { ...params, _meta: meta, inputResponses: { k: { action: "maybe" } } };
        assert.ok(relaxed(malformed), `${method}: an object entry is checked where it is read`);
        assert.not.ok(strict(malformed), `${type} itself still checks every entry`);
        assert.not.ok(relaxed({ ...params, _meta: meta, inputResponses: { k: 12345 } }), `${method}: not an object`);
        assert.is(relaxed.errors?.[0]?.instancePath, "/inputResponses/k");
        assert.not.ok(relaxed({ ...params, _meta: meta, inputResponses: [] }), `${method}: not a map`);
        assert.not.ok(relaxed({ _meta: meta, inputResponses: {} }), `${method}: the rest is checked as before`);
      }
    });
  }

  if (revision === "2026-07-28") {
    test(`${revision}: result validators take the ResultResponse unions (input_required or complete)`, async () => {
      const loaded = await loadValidators(revision);
      const callTool = loaded.resultValidators["tools/call"];
      assert.ok(callTool !== loaded.validator("CallToolResult"));
      assert.ok(callTool({ resultType: "complete", content: [{ type: "text", text: "hi" }] }));
      assert.ok(
        callTool({
          resultType: "input_required",
          inputRequests: { roots: { method: "roots/list" } },
        }),
      );
      // The schema types resultType as a plain string, so only a non-string fails both members.
      assert.not.ok(callTool({ resultType: 5, content: [] }));
      assert.is(loaded.resultValidators["tools/list"], loaded.validator("ListToolsResult"));
    });
  }

  test(`${revision}: deterministic, and the model is not mutated`, async () => {
    const model = modelOf(revision);
    const before = JSON.stringify(model);
    const first = await emitValidators(model);
    const second = await emitValidators(modelOf(revision));
    assert.equal(first, second);
    assert.is(JSON.stringify(model), before);
  });
}

test("legacy inline params accept the base _meta and check it as Request declares it", async () => {
  const { paramsValidators } = await loadValidators("2025-06-18");
  const call = paramsValidators["tools/call"]!;
  assert.ok(call({ name: "x", arguments: {}, _meta: { progressToken: 3, "com.example/trace": "t" } }));
  assert.not.ok(call({ name: "x", _meta: { progressToken: { nested: true } } }));
  assert.is(call.errors?.[0]?.instancePath, "/_meta/progressToken");
  const progress = paramsValidators["notifications/progress"]!;
  assert.ok(progress({ progressToken: "p", progress: 1, _meta: {} }));
  assert.not.ok(progress({ progressToken: "p", progress: 1, _meta: "x" }));
});

test("invalid params give a JSON pointer and a readable message", async () => {
  // 2026-07-28 requires the per-request _meta on every request.
  const meta = {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  };
  for (const revision of ["2024-11-05", "2025-11-25", "2026-07-28"]) {
    const base = revision === "2026-07-28" ? meta : {};
    const { paramsValidators } = await loadValidators(revision);
    const call = paramsValidators["tools/call"]!;
    assert.ok(call({ ...base, name: "x", arguments: {} }), revision);
    assert.not.ok(call({ ...base, name: "x", arguments: "nope" }));
    const [issue] = call.errors ?? [];
    assert.is(issue?.instancePath, "/arguments", revision);
    assert.is(issue?.message, "must be object", revision);
    assert.not.ok(call({ ...base, arguments: {} }));
    assert.is(call.errors?.[0]?.instancePath, "", revision);
    assert.is(call.errors?.[0]?.message, "must have required property 'name'", revision);
  }
});

test("validateJSONRPCMessage classifies messages of its revision", async () => {
  const { validator } = await loadValidators("2025-11-25");
  const v = validator("JSONRPCMessage");
  assert.ok(v({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
  assert.ok(v({ jsonrpc: "2.0", method: "notifications/initialized" }));
  assert.ok(v({ jsonrpc: "2.0", id: 1, result: {} }));
  assert.ok(v({ jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } }));
  assert.not.ok(v({ jsonrpc: "2.0", id: 1 }));
  assert.not.ok(v({ id: 1, method: "x" }));
  assert.ok((v.errors?.length ?? 0) > 0);
});

test("the runtime checks exactly the formats the generator compiles against", () => {
  const { formats } = abi;
  assert.equal(Object.keys(formats).sort(), [...FORMAT_NAMES].sort());
  for (const name of FORMAT_NAMES)
    assert.is((abi as Record<string, unknown>)[FORMAT_EXPORTS[name]], formats[name], name);
  const { uri, byte } = formats;
  const template = formats["uri-template"]!;
  assert.ok(uri!("file:///project/src/main.rs") && uri!("https://example.com/a?b=c#d") && uri!("urn:isbn:0451450523"));
  assert.not.ok(uri!("no scheme") || uri!("/relative/path") || uri!("http://a b") || uri!(""));
  assert.ok(template("file:///{path}") && template("https://x/{+base}/q{?a,b*}{#frag}") && template("plain"));
  assert.not.ok(template("file:///{path") || template("a}b") || template("{a b}") || template("x {y}"));
  assert.ok(byte!("") && byte!("QQ==") && byte!("QUI=") && byte!("QUJD"));
  assert.not.ok(byte!("QQ=") || byte!("Q===") || byte!("QU=J") || byte!("QU J") || byte!("Zm9v\n"));
});

const at = "/$defs/X";
const normalise = (schema: unknown) => normaliseSchema(schema, at, "2020-12", "$defs");

test("normalise drops annotations but not properties named like them, and rewrites $refs", () => {
  const out = normalise({
    description: "d",
    title: "t",
    type: "object",
    properties: {
      description: { type: "string", description: "kept: a property" },
      title: { $ref: "#/$defs/Y" },
      deep: { $ref: "#/$defs/Z/properties/a" },
    },
    anyOf: [{ const: { description: "data, kept" } }],
  });
  assert.equal(out, {
    type: "object",
    properties: {
      description: { type: "string" },
      title: { $ref: "mcpgen://defs/Y" },
      deep: { $ref: "mcpgen://defs/Z#/properties/a" },
    },
    anyOf: [{ const: { description: "data, kept" } }],
  });
});

test("normalise refuses 2020-12-only and unknown keywords, naming the JSON pointer", () => {
  for (const keyword of [
    "unevaluatedProperties",
    "prefixItems",
    "dependentSchemas",
    "$dynamicRef",
    "unevaluatedItems",
  ]) {
    try {
      normalise({ type: "object", properties: { a: { [keyword]: false } } });
      assert.unreachable(`${keyword} accepted`);
    } catch (error) {
      assert.instance(error, SchemaNormaliseError);
      assert.is((error as SchemaNormaliseError).pointer, `${at}/properties/a/${keyword}`);
      assert.match((error as Error).message, keyword);
    }
  }
  assert.throws(() => normalise({ items: [{ type: "string" }] }), /array form of "items"/);
  assert.throws(() => normalise({ typo: 1 }), /unknown keyword "typo" \(at \/\$defs\/X\/typo\)/);
  assert.throws(() => normalise({ $ref: "other.json#/x" }), /unsupported \$ref/);
});

test("a schema using a 2020-12-only keyword fails generation loudly", async () => {
  const model = modelOf("2025-11-25");
  const types = model.types.map((t) =>
    t.name === "Icon" ? { ...t, schema: { ...(t.schema as object), unevaluatedProperties: false } } : t,
  );
  const broken: ProtocolModel = { ...model, types };
  try {
    await emitValidators(broken);
    assert.unreachable("generated validators for unevaluatedProperties");
  } catch (error) {
    assert.match((error as Error).message, "/$defs/Icon/unevaluatedProperties");
  }
});

test("a format the runtime cannot check fails generation, naming the definition", async () => {
  const model = modelOf("2025-11-25");
  const types = model.types.map((t) =>
    t.name === "Icon"
      ? {
          ...t,
          schema: { ...(t.schema as { properties: object }), properties: { src: { type: "string", format: "email" } } },
        }
      : t,
  );
  try {
    await emitValidators({ ...model, types });
    assert.unreachable("generated validators for an unknown format");
  } catch (error) {
    assert.instance(error, McpgenError);
    assert.match((error as Error).message, 'at /$defs/Icon/properties/src/format: format "email" has no check');
  }
});

test.run();
