// ajv's options object between compiled functions becomes a plain instance-path parameter: the
// same results and errors as ajv's own validator, and a module that reads any other option is
// left exactly as ajv wrote it.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Ajv } from "ajv";
import { positionalPaths, standaloneCode, validatorOptions } from "../../generator/emit/ajv-code.js";

const schema = {
  definitions: {
    leaf: { type: "object", required: ["n"], properties: { n: { type: "number" } } },
    node: {
      type: "object",
      properties: {
        leaf: { $ref: "#/definitions/leaf" },
        list: { type: "array", items: { $ref: "#/definitions/leaf" } },
        map: { type: "object", additionalProperties: { $ref: "#/definitions/leaf" } },
      },
    },
  },
  type: "object",
  required: ["root"],
  properties: { root: { $ref: "#/definitions/node" }, same: { allOf: [{ $ref: "#/definitions/node" }] } },
};

/** The emitted code run as a script: its `export const X: abi.Validator = f;` lines collected in an object. */
function load(code: string): Record<string, ((data: unknown) => boolean) & { errors?: unknown }> {
  const body = code.replace(/export const ([\w$]+): abi\.Validator = ([\w$]+);/g, "out.$1 = $2;");
  const out = {};
  new Function("abi", "out", body)({}, out);
  return out as never;
}

test("positional paths: no options object is left, and results and errors match ajv's", () => {
  const code = standaloneCode({
    schemas: [{ id: "mcpgen://t", schema }],
    exports: [{ name: "validateT", id: "mcpgen://t" }],
  });
  assert.not.match(code, /parentData|rootData/);
  assert.match(code, /instancePath=""\)/);
  const emitted = load(code).validateT!;
  const reference = new Ajv(validatorOptions()).compile(schema);
  const cases: unknown[] = [
    { root: { leaf: { n: 1 }, list: [{ n: 1 }, { n: 2 }], map: { "a/b~c": { n: 3 } } } },
    { root: { leaf: { n: "x" } } },
    { root: { list: [{ n: 1 }, { n: "2" }] } },
    { root: { map: { "a/b~c": {} } } },
    { root: {}, same: { leaf: { n: null } } },
    { root: 1 },
    {},
  ];
  for (const data of cases) {
    const ok = emitted(data);
    assert.is(ok, reference(data), JSON.stringify(data));
    if (!ok) assert.equal(emitted.errors, reference.errors, JSON.stringify(data));
  }
});

test("positional paths: a module reading another option is left as ajv wrote it", () => {
  const header = 'function validate0(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){';
  const call = 'validate1(data.a, {instancePath:instancePath+"/a",parentData:data,parentDataProperty:"a",rootData})';
  const plain = `${header}return ${call};}`;
  assert.is(
    positionalPaths(plain),
    'function validate0(data, instancePath=""){return validate1(data.a, instancePath+"/a");}',
  );
  const reads = `${header}if(parentData === undefined){return ${call};}return true;}`;
  assert.is(positionalPaths(reads), reads);
  const dynamic =
    'function validate0(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){return true;}';
  assert.is(positionalPaths(dynamic), dynamic);
  // Same location (`allOf`, a `$ref` beside other keywords) and escaped property names.
  assert.is(
    positionalPaths(
      `${header}return validate1(data, {instancePath,parentData,parentDataProperty,rootData}) && validate2(data[key0], {instancePath:instancePath+"/" + key0.replace(/~/g, "~0").replace(/\\//g, "~1"),parentData:data,parentDataProperty:key0,rootData});}`,
    ),
    'function validate0(data, instancePath=""){return validate1(data, instancePath) && validate2(data[key0], instancePath+"/" + key0.replace(/~/g, "~0").replace(/\\//g, "~1"));}',
  );
});

test.run();
