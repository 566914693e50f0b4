import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Ajv } from "ajv";
import { bundledRevisions } from "../../generator/load/schema-manifest.js";
import { KNOWN_REVISIONS } from "../../generator/load/manifest-format.js";
import { manifestSchemaPath } from "../../generator/load/manifest.js";
import { starterManifest } from "../../generator/init.js";
import { root } from "./helpers.js";

const schema = JSON.parse(readFileSync(manifestSchemaPath(), "utf8"));

test("manifest schema: valid draft-07, strict-mode clean", () => {
  const ajv = new Ajv({ strict: true, allErrors: true });
  assert.ok(ajv.validateSchema(schema), JSON.stringify(ajv.errors));
  assert.not.throws(() => ajv.compile(schema));
});

test("manifest schema: revisions enum = bundled revisions = KNOWN_REVISIONS", () => {
  assert.equal(schema.properties.revisions.items.enum, bundledRevisions());
  assert.equal([...KNOWN_REVISIONS], bundledRevisions());
});

test("manifest schema: every fixture's $schema line points at it", () => {
  const fixtures = join(root, "test", "fixtures");
  for (const name of readdirSync(fixtures)) {
    const file = join(fixtures, name, "mcp.manifest.json");
    if (!existsSync(file)) continue;
    const ref = JSON.parse(readFileSync(file, "utf8")).$schema;
    if (ref !== undefined) assert.is(resolve(dirname(file), ref), manifestSchemaPath(), name);
  }
});

test("manifest schema: tool schemas reference the JSON Schema meta-schema, so editors complete and check inside them", () => {
  for (const role of ["inputSchema", "outputSchema"]) {
    assert.equal(
      schema.definitions.Tool.properties[role].allOf,
      [{ $ref: "http://json-schema.org/draft-07/schema#" }],
      role,
    );
  }
  // what an editor applying the schema as written reports (the loader checks tool schemas itself, with --lenient)
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
  const tool = (type: string) => ({
    name: "x",
    version: "1",
    tools: [{ name: "t", inputSchema: { type: "object", properties: { a: { type } } } }],
  });
  assert.ok(validate(tool("string")), JSON.stringify(validate.errors));
  assert.not.ok(validate(tool("strng")));
  assert.ok(
    validate.errors!.some((e) => e.instancePath === "/tools/0/inputSchema/properties/a/type"),
    JSON.stringify(validate.errors),
  );
});

/** The manifest schema's objects that mirror an MCP wire type, with the MCP definition each mirrors. */
const WIRE: Record<string, string> = {
  "/definitions/Icon": "Icon",
  "/definitions/Annotations": "Annotations",
  "/definitions/Tool": "Tool",
  "/definitions/Tool/properties/annotations": "ToolAnnotations",
  "/definitions/Tool/properties/execution": "ToolExecution",
  "/definitions/Resource": "Resource",
  "/definitions/ResourceTemplate": "ResourceTemplate",
  "/definitions/Prompt": "Prompt",
  "/definitions/Prompt/properties/arguments/items": "PromptArgument",
};

test("manifest schema: mcpgen's own objects are closed; those mirroring MCP wire types are open where MCP's are", () => {
  const open: string[] = [];
  const visit = (node: unknown, path: string) => {
    if (typeof node !== "object" || node === null) return;
    const o = node as Record<string, unknown>;
    if (o.properties !== undefined && o.additionalProperties !== false) open.push(path);
    for (const [k, v] of Object.entries(o)) if (k !== "allOf") visit(v, `${path}/${k}`);
  };
  visit(schema, "");
  assert.equal(open.sort(), Object.keys(WIRE).sort());
  const mcp = bundledRevisions().map((rev) => {
    const doc = JSON.parse(readFileSync(join(root, "schema", rev, "schema.json"), "utf8"));
    return { rev, defs: doc.definitions ?? doc.$defs };
  });
  for (const path of open) {
    const node = path
      .split("/")
      .slice(1)
      .reduce((n: any, k) => n[k], schema);
    assert.is(node.additionalProperties, true, `${path} says it is open on purpose`);
    // open because MCP's definition admits other keys in every bundled revision that has it
    for (const { rev, defs } of mcp) {
      const def = defs[WIRE[path]!];
      if (def) assert.is.not(def.additionalProperties, false, `${rev} ${WIRE[path]} is closed: close ${path} too`);
    }
  }
});

test("manifest schema: the init starter validates against it", () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(schema);
  assert.ok(validate(JSON.parse(starterManifest("x", "./s.json"))), JSON.stringify(validate.errors));
});

test.run();
