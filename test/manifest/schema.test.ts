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

test("manifest schema: the init starter validates against it", () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(schema);
  assert.ok(validate(JSON.parse(starterManifest("x", "./s.json"))), JSON.stringify(validate.errors));
});

test.run();
