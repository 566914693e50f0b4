// Unit tests of the runtime facades with a hand-written definition (no generator involved).
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  CapabilityError,
  McpError,
  connectMcpClient,
  createMcpServer,
  createMemoryTransportPair,
  toolError,
  type McpDefinition,
  type McpServerHandlers,
  type Validator,
} from "@mcpgen/runtime";
import { createServerSession } from "@mcpgen/runtime/internal";
import { bindings } from "../runtime/helpers/binding.js";

const isObject = ((d: unknown) => typeof d === "object" && d !== null && !Array.isArray(d)) as Validator;
const hasN = ((d: unknown) => {
  const ok = typeof d === "object" && d !== null && typeof (d as { n?: unknown }).n === "number";
  hasN.errors = ok
    ? null
    : [{ instancePath: "/n", schemaPath: "#/required", keyword: "type", params: {}, message: "must be number" }];
  return ok;
}) as Validator;

function definition(
  over: { capabilities?: { [key: string]: unknown }; tools?: number; pageSize?: number } = {},
): McpDefinition {
  const tools = Array.from({ length: over.tools ?? 4 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: "object" } }));
  const lists = {
    serverInfo: { name: "unit", version: "1" },
    capabilities: over.capabilities ?? { tools: {}, prompts: {}, resources: {} },
    tools,
    prompts: [{ name: "p", arguments: [{ name: "a", required: true }, { name: "b" }] }],
    resources: [{ uri: "u://static", name: "static" }],
    resourceTemplates: [{ uriTemplate: "u://item/{id}", name: "item" }],
  };
  return {
    revisions: ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
    pageSize: over.pageSize ?? 2,
    published: { "2025-11-25": lists, "2025-06-18": lists, "2025-03-26": lists, "2024-11-05": lists },
    toolValidators: Object.fromEntries(
      tools.map((t) => [t.name, { input: isObject, output: t.name === "t0" ? hasN : null }]),
    ),
    members: {
      tools: Object.fromEntries(tools.map((t) => [t.name, t.name])),
      prompts: { p: "p" },
      resources: { static: "static" },
      resourceTemplates: { item: "item" },
    },
  };
}

function handlers(tools: Record<string, (input: never, ctx: any) => unknown> = {}): McpServerHandlers {
  return {
    tools: { t0: () => ({ n: 1 }), t1: () => "one", t2: () => "two", t3: () => "three", ...tools },
    prompts: { p: (args: { a: string }) => `a=${args.a}` },
    resources: { static: () => "s", item: (v: { id: string }) => `item ${v.id}` },
  };
}

async function pair(def: McpDefinition, h: McpServerHandlers, clientOptions: object = {}) {
  const errors: Error[] = [];
  const server = createMcpServer(def, h, { bindings, onerror: (e) => errors.push(e) });
  const [ct, st] = createMemoryTransportPair();
  await server.connect(st);
  const client = await connectMcpClient(ct, {
    bindings,
    clientInfo: { name: "c", version: "1" },
    timeout: 5000,
    ...clientOptions,
  });
  return {
    server,
    client,
    errors,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

test("a declared entry without a handler is refused at construction, naming it", () => {
  const h = handlers();
  assert.throws(
    () => createMcpServer(definition(), { ...h, tools: { t0: h.tools!.t0!, t1: h.tools!.t1! } }, { bindings }),
    (e: Error) => /no handler for tools\.t2, tools\.t3/.test(e.message),
  );
  assert.throws(
    () => createMcpServer(definition(), { ...h, resources: { static: () => "" } }, { bindings }),
    (e: Error) => /resources\.item/.test(e.message),
  );
});

test("connections come and go: server.sessions tracks open ones only", async () => {
  const server = createMcpServer(definition(), handlers(), { bindings, onerror: () => {} });
  const clients = [];
  for (let i = 0; i < 3; i++) {
    const [ct, st] = createMemoryTransportPair();
    await server.connect(st);
    clients.push(await connectMcpClient(ct, { bindings, clientInfo: { name: `c${i}`, version: "1" } }));
  }
  assert.is(server.sessions.length, 3);
  await clients[1]!.close();
  for (let i = 0; i < 100 && server.sessions.length !== 2; i++) await new Promise((r) => setTimeout(r, 1));
  assert.is(server.sessions.length, 2);
  await server.close();
  assert.is(server.sessions.length, 0);
  for (const c of clients) await c.close();
});

test("bindings must include a revision the manifest speaks", () => {
  const def = { ...definition(), revisions: ["2026-07-28"] };
  assert.throws(
    () => createMcpServer(def, handlers(), { bindings }),
    (e: Error) => /none of the given bindings/.test(e.message),
  );
});

test("pagination: exact pages, last page without nextCursor, bad cursors -32602", async () => {
  const p = await pair(definition({ tools: 4, pageSize: 2 }), handlers());
  try {
    const one = await p.client.session.request("tools/list");
    assert.equal(
      (one.tools as { name: string }[]).map((t) => t.name),
      ["t0", "t1"],
    );
    const two = await p.client.session.request("tools/list", { cursor: one.nextCursor });
    assert.equal(
      (two.tools as { name: string }[]).map((t) => t.name),
      ["t2", "t3"],
    );
    assert.is(two.nextCursor, undefined);
    for (const cursor of ["garbage", btoa("mcpgen:99"), btoa("mcpgen:-1")]) {
      const e = await p.client.session.request("tools/list", { cursor }).catch((x: McpError) => x);
      assert.is((e as McpError).code, -32602, cursor);
    }
    assert.is((await p.client.listTools()).length, 4);
  } finally {
    await p.close();
  }
});

test("a throwing tool handler becomes an isError result and is reported; McpError passes through", async () => {
  const p = await pair(
    definition(),
    handlers({
      t1: () => {
        throw new Error("disk full");
      },
      t2: () => {
        throw new McpError(-32000, "custom", { x: 1 });
      },
      t3: () => 42,
    }),
  );
  try {
    assert.equal(await p.client.callTool("t1", {}), { content: [{ type: "text", text: "disk full" }], isError: true });
    assert.is(p.errors[0]?.message, "disk full");
    const e = (await p.client.callTool("t2", {}).catch((x) => x)) as McpError;
    assert.equal([e.code, e.message, e.data], [-32000, "custom", { x: 1 }]);
    const bad = (await p.client.callTool("t3", {}).catch((x) => x)) as McpError;
    assert.is(bad.code, -32603);
  } finally {
    await p.close();
  }
});

test("invalid structured output: -32603, reported, never sent; toolError skips output validation", async () => {
  let calls = 0;
  const p = await pair(
    definition(),
    handlers({ t0: (input: { mode?: string }) => (calls++, input.mode === "err" ? toolError("nope") : { n: "x" }) }),
  );
  try {
    const e = (await p.client.callTool("t0", {}).catch((x) => x)) as McpError;
    assert.is(e.code, -32603);
    assert.not.match(e.message, /"x"/);
    assert.is(p.errors[0]?.name, "InvalidToolOutputError");
    assert.equal(await p.client.callTool("t0", { mode: "err" }), {
      isError: true,
      content: [{ type: "text", text: "nope" }],
    });
    assert.is(calls, 2);
  } finally {
    await p.close();
  }
});

test("structured output gets its JSON text block; structuredContent dropped before 2025-06-18", async () => {
  const p = await pair(definition(), handlers());
  const old = await pair(definition(), handlers(), { protocolVersion: "2025-03-26" });
  try {
    assert.equal(await p.client.callTool("t0", {}), {
      content: [{ type: "text", text: '{"n":1}' }],
      structuredContent: { n: 1 },
    });
    assert.equal(await old.client.callTool("t0", {}), { content: [{ type: "text", text: '{"n":1}' }] });
  } finally {
    await p.close();
    await old.close();
  }
});

test("prompts: required arguments enforced, optional ones not", async () => {
  const p = await pair(definition(), handlers());
  try {
    assert.is(((await p.client.getPrompt("p", { a: "1" })).messages[0]!.content as { text: string }).text, "a=1");
    assert.is(((await p.client.getPrompt("p").catch((x) => x)) as McpError).code, -32602);
  } finally {
    await p.close();
  }
});

test("resources: template routing and -32002 for unknown URIs", async () => {
  const p = await pair(definition(), handlers());
  try {
    assert.equal((await p.client.readResource("u://item/a%20b")).contents, [
      { uri: "u://item/a%20b", text: "item a b" },
    ]);
    assert.equal((await p.client.readResource("u://static")).contents, [{ uri: "u://static", text: "s" }]);
    assert.is(((await p.client.readResource("u://item/").catch((x) => x)) as McpError).code, -32002);
  } finally {
    await p.close();
  }
});

test("undeclared features: no logging or subscription without the capability", async () => {
  const logs: unknown[] = [];
  const p = await pair(
    definition(),
    handlers({ t1: async (_: never, ctx: any) => (await ctx.log("emergency", "x"), "ok") }),
  );
  try {
    p.client.on("notifications/message", (m) => void logs.push(m));
    assert.is((await p.client.callTool("t1", {})).isError, undefined);
    await p.client.ping();
    assert.equal(logs, []);
    const e = await p.server.notifyResourceUpdated("u://static").catch((x) => x);
    assert.instance(e, TypeError);
    assert.instance(await p.server.notifyToolsListChanged().catch((x) => x), TypeError);
    assert.instance(await p.client.setLoggingLevel("info").catch((x) => x), CapabilityError);
  } finally {
    await p.close();
  }
});

test("ctx.client requests respect the client's capabilities (CapabilityError, nothing sent)", async () => {
  let seen: unknown;
  const p = await pair(
    definition(),
    handlers({
      t1: async (_: never, ctx: any) => {
        seen = await ctx.client
          .elicit({ message: "m", requestedSchema: { type: "object", properties: { a: { type: "string" } } } })
          .catch((e: Error) => e);
        return "done";
      },
    }),
  );
  try {
    await p.client.callTool("t1", {});
    assert.instance(seen, CapabilityError);
  } finally {
    await p.close();
  }
});

test("accepted elicitation content is checked against the requested schema", async () => {
  const schema = {
    type: "object",
    properties: {
      name: { type: "string", minLength: 1 },
      age: { type: "integer", minimum: 0 },
      pet: { type: "string", enum: ["cat", "dog"] },
    },
    required: ["name"],
  } as const;
  const answers: unknown[] = [{ name: "Ada", age: 36, pet: "cat" }, { age: -1 }, { name: "", pet: "fish" }];
  const seen: unknown[] = [];
  const p = await pair(
    definition(),
    handlers({
      t1: async (_: never, ctx: any) => {
        seen.push(
          await ctx.client.elicit({ message: "m", requestedSchema: schema }).then(
            (r: { content: unknown }) => r.content,
            (e: Error & { issues?: { instancePath: string }[] }) =>
              `${e.name}: ${e.issues?.map((i) => i.instancePath).join(",")}`,
          ),
        );
        return "done";
      },
    }),
    { handlers: { elicitation: () => ({ action: "accept", content: answers.shift() }) } },
  );
  try {
    for (let i = 0; i < 3; i++) await p.client.callTool("t1", {});
    assert.equal(seen, [
      { name: "Ada", age: 36, pet: "cat" },
      "InvalidResultError: /name,/age",
      "InvalidResultError: /name,/pet",
    ]);
  } finally {
    await p.close();
  }
});

test("cancellation reaches the handler's signal", async () => {
  let aborted: Promise<boolean> | undefined;
  const p = await pair(
    definition(),
    handlers({
      t1: (_: never, ctx: any) => {
        aborted = new Promise((r) => ctx.signal.addEventListener("abort", () => r(true)));
        return new Promise(() => {});
      },
    }),
  );
  try {
    const ac = new AbortController();
    const call = p.client.callTool("t1", {}, { signal: ac.signal });
    while (aborted === undefined) await new Promise((r) => setTimeout(r, 1));
    ac.abort(new Error("stop"));
    await call.catch(() => {});
    assert.is(await aborted, true);
  } finally {
    await p.close();
  }
});

test("generic client: a server that repeats its cursor does not hang listTools", async () => {
  const [ct, st] = createMemoryTransportPair();
  await createServerSession({
    transport: st,
    bindings,
    serverInfo: { name: "loop", version: "1" },
    capabilities: { tools: {} },
    handlers: { "tools/list": () => ({ tools: [], nextCursor: "same" }) },
  });
  const client = await connectMcpClient(ct, { bindings, clientInfo: { name: "c", version: "1" } });
  try {
    const e = (await client.listTools().catch((x) => x)) as Error;
    assert.match(e.message, /repeated cursor/);
  } finally {
    await client.close();
  }
});

test("client handlers declare the capabilities they imply", async () => {
  const [ct, st] = createMemoryTransportPair();
  const server = await createServerSession({
    transport: st,
    bindings,
    serverInfo: { name: "s", version: "1" },
    capabilities: {},
  });
  const client = await connectMcpClient(ct, {
    bindings,
    clientInfo: { name: "c", version: "1" },
    handlers: {
      sampling: () => ({ role: "assistant", content: { type: "text", text: "" }, model: "m" }),
      roots: () => [],
      elicitation: () => ({ action: "cancel" }),
    },
    samplingTools: true,
    rootsListChanged: true,
  });
  try {
    await server.initialized;
    assert.equal(server.clientCapabilities, { sampling: { tools: {} }, roots: { listChanged: true }, elicitation: {} });
  } finally {
    await client.close();
  }
});

test.run();
