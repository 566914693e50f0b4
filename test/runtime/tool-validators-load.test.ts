// A generated definition imports its tool validators on first use: a server's first tools/call (in
// either era), a client's connect. Counted here through the definition's thunk.
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  createMcpClient,
  createMcpServer,
  createMemoryTransportPair,
  type McpDefinition,
  type ToolValidators,
  type Validator,
} from "@mcpgen/runtime";
import { connectClient } from "@mcpgen/runtime/internal";
import { bindings, dual } from "./helpers/binding.js";
import { definition, handlers, META } from "./modern/fixture.js";
import { rawPeer } from "./helpers/peer.js";

const regionString = ((d: unknown) => typeof (d as { region?: unknown }).region === "string") as Validator;
regionString.errors = [
  {
    instancePath: "/region",
    schemaPath: "#/properties/region/type",
    keyword: "type",
    params: {},
    message: "must be string",
  },
];

/** The fixture's definition with its validators behind a counting thunk; `fail` first imports fail. */
function imported(revisions: string[], fail = 0): { definition: McpDefinition; imports: () => number } {
  const base = definition(revisions);
  const validators: ToolValidators = {
    ...(base.toolValidators as ToolValidators),
    echo: { input: regionString, output: null },
  };
  let imports = 0;
  let failing = fail;
  return {
    definition: {
      ...base,
      toolValidators: async () => {
        imports++;
        if (failing-- > 0) throw new Error("cannot find module ./validators.js");
        return validators;
      },
    },
    imports: () => imports,
  };
}

test("legacy: tools/list imports no tool validator; the first tools/call imports them once and they apply", async () => {
  const { definition: d, imports } = imported(["2025-11-25"]);
  const mcp = createMcpServer(d, handlers(), { bindings, onerror: () => {} });
  const [ct, st] = createMemoryTransportPair();
  await mcp.connect(st);
  const client = await connectClient({ transport: ct, bindings, clientInfo: { name: "c", version: "1" } });
  await client.request("tools/list", {});
  assert.is(imports(), 0);
  const [ok, bad] = await Promise.all([
    client.request("tools/call", { name: "echo", arguments: { region: "x" } }),
    client.request("tools/call", { name: "echo", arguments: { region: 3 } }),
  ]);
  assert.is((ok as any).content[0].text, "region=x");
  assert.is((bad as any).isError, true, "the imported input validator refused the arguments");
  assert.match((bad as any).content[0].text, /Invalid arguments for tool "echo": \/region must be string/);
  await client.request("tools/call", { name: "echo", arguments: { region: "y" } });
  assert.is(imports(), 1);
  await client.close();
  await mcp.close();
});

test("2026-07-28: a tools/call whose validators fail to import answers -32603; the next call imports again", async () => {
  const errors: Error[] = [];
  const { definition: d, imports } = imported(["2026-07-28"], 1);
  const mcp = createMcpServer(d, handlers(), { bindings: dual, onerror: (e) => errors.push(e) });
  const [ct, st] = createMemoryTransportPair();
  await mcp.connect(st);
  const peer = rawPeer(ct);
  const call = (id: number) =>
    peer.send({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "echo", arguments: { region: "r" }, _meta: META },
    });
  await call(1);
  const refused = await peer.next(2000);
  assert.is(refused.error?.code, -32603);
  assert.match(refused.error?.message, /the tool validators could not be loaded: cannot find module/);
  assert.ok(errors.some((e) => /tool validators could not be loaded/.test(e.message)));
  await call(2);
  const answered = await peer.next(2000);
  assert.is(answered.result?.content?.[0]?.text, "region=r");
  assert.is(imports(), 2);
  await mcp.close();
});

test("a client of a definition that imports its validators imports them when it connects", async () => {
  const { definition: d, imports } = imported(["2025-11-25"]);
  const mcp = createMcpServer(definition(["2025-11-25"]), handlers(), { bindings, onerror: () => {} });
  const [ct, st] = createMemoryTransportPair();
  await mcp.connect(st);
  const client = await createMcpClient(d, ct, { bindings, clientInfo: { name: "c", version: "1" } });
  assert.is(imports(), 1);
  await client.close();
  await mcp.close();
});

test.run();
