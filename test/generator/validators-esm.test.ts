// The emitted validators are real ES modules: a plain .mjs file imports them with node, with
// `@mcpgen/runtime/abi/v8` resolved like any package and no CommonJS `require` in sight.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { emitValidators } from "../../generator/emit/protocol/validators.js";
import { modelOf, removeDir, tempDir, writeTranspiled } from "./validators-fixture.js";

const consumer = `
import { paramsValidators, resultValidators, validateCallToolRequest, validateJSONRPCMessage } from "./validators.js";
const request = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: {} } };
const out = {
  request: validateCallToolRequest(request),
  message: validateJSONRPCMessage(request),
  invalid: validateCallToolRequest({ ...request, params: { arguments: 1 } }),
  error: validateCallToolRequest.errors?.[0],
  params: paramsValidators["tools/call"]({ name: "echo" }),
  result: resultValidators["tools/call"]({ content: [{ type: "text", text: "hi" }] }),
  image: resultValidators["tools/call"]({ content: [{ type: "image", data: "not base64", mimeType: "image/png" }] }),
};
console.log(JSON.stringify(out));
`;

test("node imports the emitted validators from a .mjs file", async () => {
  const dir = tempDir("validators-esm-");
  try {
    writeTranspiled(dir, await emitValidators(modelOf("2025-11-25")));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(join(dir, "consumer.mjs"), consumer);
    const run = spawnSync(process.execPath, [join(dir, "consumer.mjs")], { encoding: "utf8", timeout: 30_000 });
    assert.is(run.status, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout), {
      request: true,
      message: true,
      invalid: false,
      error: {
        instancePath: "/params",
        schemaPath: "#/required",
        keyword: "required",
        params: { missingProperty: "name" },
        message: "must have required property 'name'",
      },
      params: true,
      result: true,
      image: false,
    });
  } finally {
    removeDir(dir);
  }
});

test.run();
