// A tool result is built fresh for every call: a handler may return the same object every time
// (a constant, a cached `toolResult`, a `toolError`) and neither the runtime nor a client that
// edits what it received changes it or another call's result. Runs the generated bench server
// and client (bench/add/structured), in every era the client can negotiate.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createMemoryTransportPair, toolError, toolResult, type ProtocolBinding } from "@mcpgen/runtime";
import { binding as b20241105 } from "@mcpgen/runtime/protocol/2024-11-05";
import { binding as b20251125 } from "@mcpgen/runtime/protocol/2025-11-25";
import { createBenchAddServer } from "../../bench/add/structured/server.js";
import { createBenchAddClient } from "../../bench/add/structured/client.js";

const snapshot = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;

async function connect(returned: (a: number, b: number) => unknown, bindings?: ProtocolBinding[]) {
  const errors: Error[] = [];
  const server = createBenchAddServer(
    { tools: { add: ({ a, b }) => returned(a, b) as never } },
    { onerror: (e) => errors.push(e) },
  );
  const [ct, st] = createMemoryTransportPair();
  const connection = await server.connect(st);
  const client = await createBenchAddClient(ct, {
    clientInfo: { name: "t", version: "1" },
    ...(bindings ? { bindings } : {}),
  });
  return {
    client,
    errors,
    close: async () => {
      await client.close();
      await connection.close();
    },
  };
}

const eras: [string, ProtocolBinding[] | undefined][] = [
  ["default revisions", undefined],
  ["2025-11-25", [b20251125]],
  ["2024-11-05", [b20241105]],
];

for (const [era, bindings] of eras) {
  test(`${era}: a constant toolResult returned every call is never written to, and results are not shared`, async () => {
    // The text block is the structured output's JSON, which is what a pre-2025-06-18 client reads.
    const constant = toolResult({
      structuredContent: { sum: 5 },
      content: [{ type: "text", text: '{"sum":5}' }],
      _meta: { note: "kept" },
    });
    const before = snapshot(constant);
    const { client, errors, close } = await connect(() => constant, bindings);
    try {
      const first = await client.tools.add({ a: 2, b: 3 });
      assert.is(first.isError, false);
      assert.equal(first.structured, { sum: 5 });
      // Whoever receives a wire result may edit its fields; the next call must not see that.
      // (Values inside it are shared by reference on the memory transport, as documented there.)
      const wire = await client.callTool("add", { a: 2, b: 3 });
      wire.content = [];
      wire.isError = true;
      delete wire.structuredContent;
      const second = await client.tools.add({ a: 2, b: 3 });
      assert.equal(second.structured, { sum: 5 });
      assert.is(second.isError, false);
      assert.equal(second.content, [{ type: "text", text: '{"sum":5}' }]);
      assert.is.not(await client.callTool("add", { a: 2, b: 3 }), wire);
      assert.equal(snapshot(constant), before, "the handler's object is unchanged");
      assert.equal(Object.keys(constant).sort(), ["_meta", "content", "structuredContent"]);
      assert.equal(errors, []);
    } finally {
      await close();
    }
  });

  test(`${era}: plain structured output without content gets its JSON text block; the handler's object stays as it was`, async () => {
    const constant = { sum: 7 };
    const empty = toolResult({ structuredContent: { sum: 7 }, content: [] });
    const { client, close } = await connect((a) => (a === 0 ? constant : empty), bindings);
    try {
      for (const a of [0, 1, 0, 1]) {
        const r = await client.tools.add({ a, b: 7 });
        assert.equal(r.structured, { sum: 7 });
        assert.equal(r.content, [{ type: "text", text: '{"sum":7}' }]);
      }
      assert.equal(constant, { sum: 7 });
      assert.equal(Object.keys(constant), ["sum"]);
      assert.equal(empty.content, [], "an empty content array is replaced in the wire result, not filled in");
    } finally {
      await close();
    }
  });

  test(`${era}: error paths still carry the right errors`, async () => {
    const failure = toolError("no sum today", { reason: "test" });
    const before = snapshot(failure);
    const { client, errors, close } = await connect((a) => {
      if (a === 1) return failure;
      if (a === 2) throw new Error("handler broke");
      return { total: a };
    }, bindings);
    try {
      const declined = await client.tools.add({ a: 1, b: 0 });
      assert.is(declined.isError, true);
      assert.equal(declined.content, [{ type: "text", text: "no sum today" }]);
      assert.equal(snapshot(failure), before);
      const thrown = await client.tools.add({ a: 2, b: 0 });
      assert.is(thrown.isError, true);
      assert.equal(thrown.content, [{ type: "text", text: "handler broke" }]);
      assert.ok(
        errors.some((e) => e.message === "handler broke"),
        "a throwing handler is reported to onerror",
      );
      // Output that breaks the outputSchema is never sent: the call fails with an internal error.
      try {
        await client.tools.add({ a: 3, b: 0 });
        assert.unreachable("an invalid structured output must not arrive");
      } catch (e) {
        assert.match((e as Error).message, /outputSchema/);
      }
      assert.ok(
        errors.some((e) => e.name === "InvalidToolOutputError"),
        "the server reports InvalidToolOutputError",
      );
    } finally {
      await close();
    }
  });
}

test.run();
