// The `rawval` bench baseline is only a floor if it really validates what mcpgen's pair does:
// a call that any of its validators would refuse must be refused.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { rawValidated, validatingHandler, validatorsOf } from "../../bench/impl/raw-validated.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
};
const call = (params: object) => ({ jsonrpc: "2.0", id: 7, method: "tools/call", params }) as never;
const errorCode = (r: object | undefined) => (r as { error?: { code: number } } | undefined)?.error?.code;

for (const variant of ["text", "structured"] as const) {
  test(`rawval ${variant}: a valid call answers the sum`, async () => {
    const h = await rawValidated.inproc!({ variant });
    assert.is(await h.call(2, 3), 5);
    await h.close();
  });

  test(`rawval ${variant}: bad arguments and a bad request _meta are refused`, async () => {
    const handle = validatingHandler(variant, await validatorsOf(variant));
    assert.is(errorCode(handle(call({ name: "add", arguments: { a: 1, b: 2 }, _meta: META }))), undefined);
    assert.is(errorCode(handle(call({ name: "add", arguments: { a: "1", b: 2 }, _meta: META }))), -32602);
    assert.is(errorCode(handle(call({ name: "add", arguments: { a: 1 }, _meta: META }))), -32602);
    const badMeta = { ...META, "io.modelcontextprotocol/clientInfo": { name: 1 } };
    assert.is(errorCode(handle(call({ name: "add", arguments: { a: 1, b: 2 }, _meta: badMeta }))), -32602);
  });
}

test("rawval: results the client would refuse are refused", async () => {
  const v = await validatorsOf("structured");
  assert.ok(
    v.result({ content: [{ type: "text", text: "3" }], structuredContent: { sum: 3 }, resultType: "complete" }),
  );
  assert.not.ok(v.result({ content: "3" }));
  assert.ok(v.output !== null);
  assert.not.ok(v.output!({ sum: "3" }));
});

test.run();
