// A tool handler that answers synchronously is answered without a promise on the 2026-07-28
// server (server/modern.ts withInput, server/tools.ts runTool); these cases check that every
// outcome a synchronous handler can have still reaches the client as it did through promises.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createMcpServer, McpError, type Validator } from "@mcpgen/runtime";
import { bindings, modern } from "../helpers/binding.js";
import { connect, definition } from "./fixture.js";

function syncServer(onerror: (e: Error) => void = () => {}) {
  const base = definition();
  const strict = ((d: unknown) =>
    typeof d === "object" && d !== null && typeof (d as { n?: unknown }).n === "number") as Validator;
  return createMcpServer(
    { ...base, toolValidators: { ...base.toolValidators, echo: { input: strict, output: null } } },
    {
      tools: {
        echo: (input: { n: number }) => `n=${input.n}`,
        // Asks without awaiting, then returns: the run is blocked, so the answer is input_required.
        ask: (_: never, ctx: any) => {
          void ctx.client.elicit(
            { message: "name?", requestedSchema: { type: "object", properties: {} } },
            { key: "name" },
          );
          return "not yet";
        },
        parallel: () => {
          throw new McpError(-32602, "Invalid params: nope");
        },
        sample: () => {
          throw new Error("tool broke");
        },
        log: () => ({ content: "not an array" }) as never,
      },
      prompts: { p: () => "p" },
      resources: { static: () => "s", item: () => "i" },
    },
    { bindings: [modern, ...bindings], onerror },
  );
}

test("a synchronous tool: complete result; invalid arguments are a tool error", async () => {
  const s = syncServer();
  const peer = await connect(s);
  const ok = (await peer.call("tools/call", { name: "echo", arguments: { n: 4 } })).result;
  assert.is(ok.resultType, "complete");
  assert.equal(ok.content, [{ type: "text", text: "n=4" }]);
  assert.is(ok._meta["io.modelcontextprotocol/serverInfo"].name, "dual");
  const bad = (await peer.call("tools/call", { name: "echo", arguments: { n: "x" } })).result;
  assert.is(bad.isError, true);
  await s.close();
});

test("a synchronous tool that asks for input without awaiting answers input_required", async () => {
  const s = syncServer();
  const peer = await connect(s);
  const r = (await peer.call("tools/call", { name: "ask", arguments: {} })).result;
  assert.is(r.resultType, "input_required");
  assert.equal(Object.keys(r.inputRequests), ["name"]);
  assert.type(r.requestState, "string");
  // Answered, the same synchronous run completes.
  const done = (
    await peer.call("tools/call", {
      name: "ask",
      arguments: {},
      inputResponses: { name: { action: "decline" } },
      requestState: r.requestState,
    })
  ).result;
  assert.is(done.resultType, "complete");
  assert.is(done.content[0].text, "not yet");
  await s.close();
});

test("a synchronous tool that throws: McpError is the response's error, another error a tool error and a report", async () => {
  const reported: Error[] = [];
  const s = syncServer((e) => reported.push(e));
  const peer = await connect(s);
  const mcp = await peer.call("tools/call", { name: "parallel", arguments: {} });
  assert.is(mcp.error.code, -32602);
  assert.is(mcp.error.message, "Invalid params: nope");
  const broke = (await peer.call("tools/call", { name: "sample", arguments: {} })).result;
  assert.is(broke.isError, true);
  assert.is(broke.content[0].text, "tool broke");
  assert.ok(reported.some((e) => e.message === "tool broke"));
  const shape = await peer.call("tools/call", { name: "log", arguments: {} });
  assert.is(shape.error.code, -32603, "a handler returning a bad result is an internal error");
  await s.close();
});

test.run();
