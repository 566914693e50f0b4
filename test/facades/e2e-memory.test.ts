// End to end over the in-memory transport: the facade fixture generated, compiled with
// tsc --strict (type tests included), served with its handlers and driven with the generated client.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createMemoryTransportPair, McpError, ToolOutputError, type ProtocolBinding } from "@mcpgen/runtime";
import { bindings } from "../runtime/helpers/binding.js";
import { buildFixture, type BuiltFixture } from "./build-fixture.js";

let fx: BuiltFixture;
let server: any;
let mod: { server: any; client: any; handlers: any };
const errors: Error[] = [];

async function connect(
  options: { protocolVersion?: string; handlers?: object; bindings?: ProtocolBinding[] } = {},
): Promise<any> {
  const [ct, st] = createMemoryTransportPair();
  await server.connect(st);
  return mod.client.createNotesClient(ct, {
    bindings: options.bindings ?? bindings,
    clientInfo: { name: "e2e", version: "1" },
    timeout: 10_000,
    ...(options.protocolVersion ? { protocolVersion: options.protocolVersion } : {}),
    ...(options.handlers ? { handlers: options.handlers } : {}),
  });
}

test.before(async () => {
  fx = await buildFixture("facades");
  mod = {
    server: await fx.load("mcp/server.js"),
    client: await fx.load("mcp/client.js"),
    handlers: await fx.load("handlers.js"),
  };
  server = mod.server.createNotesServer(mod.handlers.createHandlers(), {
    bindings,
    onerror: (e: Error) => errors.push(e),
  });
});
test.after(async () => {
  await server?.close();
  fx?.cleanup();
});

test("generated files and type tests compile under tsc --strict", () => {
  assert.is(fx.tsc.code, 0, fx.tsc.output);
});

test("tools: typed structured results, content-only tools, toolResult, toolError", async () => {
  const c = await connect();
  try {
    const a = await c.tools.addNote({ title: "First", body: "one two three", tags: ["work"] });
    assert.equal(a, {
      isError: false,
      structured: { id: 1, title: "First", tags: ["work"], meta: { words: 3 } },
      content: [{ type: "text", text: JSON.stringify(a.structured) }],
    });
    const b = await c.tools.addNote({ title: "Second", priority: "high" });
    assert.equal(b.content, [{ type: "text", text: "high priority note 2" }]);
    assert.is(b.structured.id, 2);
    assert.equal((await c.tools.listNotes({ tag: "work" })).structured, { notes: [{ id: 1, title: "First" }] });
    assert.equal((await c.tools.listNotes()).structured.notes.length, 2);
    const r = await c.tools.renderNote({ id: 1 });
    assert.equal(r, {
      isError: false,
      structured: undefined,
      content: [{ type: "text", text: "# First\n\none two three" }],
    });
    const missing = await c.tools.renderNote({ id: 42 });
    assert.equal(missing, { isError: true, structured: undefined, content: [{ type: "text", text: "no note 42" }] });
  } finally {
    await c.close();
  }
});

test("tools/list paginates with the manifest's page size; listTools follows it", async () => {
  const c = await connect();
  try {
    const first = await c.session.request("tools/list");
    assert.is(first.tools.length, 2);
    assert.type(first.nextCursor, "string");
    const tools = await c.listTools();
    assert.equal(
      tools.map((t: { name: string }) => t.name),
      ["add_note", "list_notes", "render.note", "broken-output", "slow"],
    );
    const bad = await c.session.request("tools/list", { cursor: "nope" }).catch((e: unknown) => e);
    assert.instance(bad, McpError);
    assert.is(bad.code, -32602);
  } finally {
    await c.close();
  }
});

test("invalid arguments: isError result from 2025-11-25, -32602 before", async () => {
  const c = await connect();
  try {
    const r = await c.callTool("add_note", { title: "" });
    assert.is(r.isError, true);
    assert.match(r.content[0].text, /Invalid arguments for tool "add_note": \/title/);
  } finally {
    await c.close();
  }
  const old = await connect({ protocolVersion: "2025-06-18" });
  try {
    const e = await old.callTool("add_note", { title: "x", extra: 1 }).catch((x: unknown) => x);
    assert.instance(e, McpError);
    assert.is(e.code, -32602);
    assert.match(e.message, /Invalid arguments for tool "add_note"/);
    const unknown = await old.callTool("nope", {}).catch((x: unknown) => x);
    assert.is(unknown.code, -32602);
  } finally {
    await old.close();
  }
});

test("a handler's invalid structured output is never sent: -32603 and reported", async () => {
  const c = await connect();
  errors.length = 0;
  try {
    const e = await c.tools.brokenOutput().catch((x: unknown) => x);
    assert.instance(e, McpError);
    assert.is(e.code, -32603);
    assert.match(e.message, /does not match its outputSchema/);
    assert.ok(errors.some((x) => x.name === "InvalidToolOutputError"));
  } finally {
    await c.close();
  }
});

test("client rejects a structured result that fails the outputSchema (typed error)", async () => {
  const [ct, st] = createMemoryTransportPair();
  await server.connect(st);
  const c = await mod.client.createNotesClient(ct, {
    bindings,
    clientInfo: { name: "e2e", version: "1" },
    timeout: 10_000,
  });
  // A lying server: its tools/call results are replaced on their way to the client.
  let lie: object | undefined;
  const deliver = ct.onmessage!;
  ct.onmessage = (m: any, context) =>
    deliver(lie !== undefined && Array.isArray(m.result?.content) ? { ...m, result: lie } : m, context);
  try {
    lie = { content: [], structuredContent: { notes: [{ id: "x" }] } };
    const e = await c.tools.listNotes().catch((x: unknown) => x);
    assert.instance(e, ToolOutputError);
    assert.is(e.tool, "list_notes");
    lie = { content: [{ type: "text", text: "boom" }], isError: true };
    assert.equal(await c.tools.listNotes(), {
      isError: true,
      structured: undefined,
      content: [{ type: "text", text: "boom" }],
    });
    lie = undefined;
    assert.is((await c.tools.listNotes()).isError, false);
  } finally {
    await c.close();
  }
});

test("initialize answers with the negotiated revision's serverInfo (title exists from 2025-06-18)", async () => {
  const latest = await connect();
  const old = await connect({ protocolVersion: "2025-03-26" });
  try {
    assert.is(latest.serverInfo.title, "Notes (facade fixture)");
    assert.is(old.protocolVersion, "2025-03-26");
    assert.equal(old.serverInfo, { name: "notes", version: "0.3.0" });
  } finally {
    await latest.close();
    await old.close();
  }
});

test("old revisions: structured output travels as JSON text and is still typed", async () => {
  const c = await connect({ protocolVersion: "2025-03-26" });
  try {
    assert.is(c.protocolVersion, "2025-03-26");
    const tools = await c.listTools();
    assert.is(tools[0].outputSchema, undefined);
    const r = await c.tools.listNotes();
    assert.is(r.isError, false);
    assert.ok(Array.isArray(r.structured.notes));
  } finally {
    await c.close();
  }
});

test("prompts: typed args, required ones enforced, string and message results", async () => {
  const c = await connect();
  try {
    const p = await c.prompts.summarise({ tag: "work" });
    assert.equal(p.messages, [
      { role: "user", content: { type: "text", text: "Summarise notes tagged work (short)" } },
    ]);
    assert.equal((await c.prompts.daily()).messages[0].content.text, "What did I write today?");
    const e = await c.getPrompt("summarise", { style: "long" }).catch((x: unknown) => x);
    assert.is(e.code, -32602);
    assert.match(e.message, /requires argument "tag"/);
    assert.is((await c.getPrompt("nope").catch((x: unknown) => x)).code, -32602);
    assert.equal(
      (await c.listPrompts()).map((x: { name: string }) => x.name),
      ["summarise", "daily"],
    );
  } finally {
    await c.close();
  }
});

test("resources: static reads, templates routed by RFC 6570 match with variables, not found -32002", async () => {
  const c = await connect();
  try {
    assert.equal((await c.resources.readme()).contents, [
      { uri: "notes://readme", mimeType: "text/markdown", text: "# Notes" },
    ]);
    const idx = await c.resources.index();
    assert.is(idx.contents[0].uri, "notes://index");
    assert.is(idx.contents[0].mimeType, "application/json");
    const n = await c.resources.note({ id: "1" });
    assert.is(JSON.parse(n.contents[0].text).title, "First");
    assert.equal((await c.resources.search({ q: "a b&c", limit: "5" })).contents[0], {
      uri: "notes://search?q=a%20b%26c&limit=5",
      text: "search q=a b&c limit=5",
    });
    assert.is((await c.resources.search()).contents[0].text, "search q= limit=");
    assert.is((await c.resources.file({ path: ["a", "b c"] })).contents[0].text, "file a|b c");
    const e = await c.readResource("notes://nowhere").catch((x: unknown) => x);
    assert.is(e.code, -32002);
    assert.equal(e.data, { uri: "notes://nowhere" });
    assert.is((await c.readResource("notes://note/999").catch((x: unknown) => x)).code, -32002);
    assert.equal(
      (await c.listResources()).map((r: { uri: string }) => r.uri),
      ["notes://index", "notes://readme"],
    );
    assert.equal(
      (await c.listResourceTemplates()).map((r: { name: string }) => r.name),
      ["note", "search", "file"],
    );
  } finally {
    await c.close();
  }
});

test("completion: prompt arguments and template variables, capped at 100 with hasMore", async () => {
  const c = await connect();
  try {
    assert.equal(await c.completions.prompts.summarise("tag", "w"), { values: ["work"] });
    assert.equal(await c.completions.prompts.summarise("style", "x"), { values: [] });
    const ids = await c.completions.resources.note("id", "");
    assert.is(ids.values.length, 100);
    assert.is(ids.total, 150);
    assert.is(ids.hasMore, true);
    assert.equal(await c.completions.resources.search("limit", "1", { q: "more" }), {
      values: ["10"],
      total: 1,
      hasMore: true,
    });
  } finally {
    await c.close();
  }
});

test("subscriptions: notifyResourceUpdated reaches subscribers only", async () => {
  const a = await connect();
  const b = await connect();
  try {
    const got: string[] = [];
    a.on("notifications/resources/updated", (p: { uri: string }) => void got.push(`a:${p.uri}`));
    b.on("notifications/resources/updated", (p: { uri: string }) => void got.push(`b:${p.uri}`));
    await a.subscribeResource("notes://index");
    assert.is(await server.notifyResourceUpdated("notes://index"), 1);
    assert.is(await server.notifyResourceUpdated("notes://readme"), 0);
    await a.unsubscribeResource("notes://index");
    assert.is(await server.notifyResourceUpdated("notes://index"), 0);
    await a.ping();
    assert.equal(got, ["a:notes://index"]);
  } finally {
    await a.close();
    await b.close();
  }
});

test("list_changed notifications go to every initialized connection", async () => {
  const a = await connect();
  try {
    const got: string[] = [];
    a.on("notifications/tools/list_changed", () => void got.push("tools"));
    a.on("notifications/prompts/list_changed", () => void got.push("prompts"));
    a.on("notifications/resources/list_changed", () => void got.push("resources"));
    await server.notifyToolsListChanged();
    await server.notifyPromptsListChanged();
    await server.notifyResourcesListChanged();
    await a.ping();
    assert.equal(got, ["tools", "prompts", "resources"]);
  } finally {
    await a.close();
  }
});

test("progress, logging with setLevel, and typed requests to the client", async () => {
  const c = await connect({
    handlers: {
      sampling: () => ({ role: "assistant", content: { type: "text", text: "hello" }, model: "m1" }),
      elicitation: () => ({ action: "accept", content: { name: "Ada", age: 36 } }),
      roots: () => [{ uri: "file:///home" }],
    },
  });
  try {
    const logs: string[] = [];
    c.on(
      "notifications/message",
      (p: { level: string; data: unknown }) => void logs.push(`${p.level}:${JSON.stringify(p.data)}`),
    );
    const progress: number[] = [];
    const r = await c.tools.slow({ steps: 3 }, { onprogress: (p: { progress: number }) => progress.push(p.progress) });
    assert.equal(r.structured, { done: 3 });
    assert.equal(progress, [1, 2, 3]);
    assert.equal(logs, ['warning:"slow finished"']);
    await c.setLoggingLevel("debug");
    logs.length = 0;
    await c.tools.slow({ steps: 1 });
    assert.equal(logs, ['debug:{"step":1}', 'warning:"slow finished"']);
    await c.setLoggingLevel("error");
    logs.length = 0;
    await c.tools.slow({ steps: 1 });
    assert.equal(logs, []);
    assert.is((await c.tools.slow({ steps: 1, ask: "sample" })).structured.answer, "m1: hello");
    assert.is((await c.tools.slow({ steps: 1, ask: "elicit" })).structured.answer, "Ada/36");
    assert.is((await c.tools.slow({ steps: 1, ask: "roots" })).structured.answer, "file:///home");
  } finally {
    await c.close();
  }
});

test("requests to a client without the capability fail in the handler (tool error), nothing is sent", async () => {
  const c = await connect();
  errors.length = 0;
  try {
    const r = await c.tools.slow({ steps: 1, ask: "sample" });
    assert.is(r.isError, true);
    assert.match(r.content[0].text, /sampling/);
    assert.is((await c.tools.slow({ steps: 1, ask: "roots" })).isError, true);
  } finally {
    await c.close();
  }
});

test("one server definition serves many connections, each with its own revision", async () => {
  const clients = await Promise.all(
    ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"].map((v) => connect({ protocolVersion: v })),
  );
  try {
    assert.equal(
      clients.map((c) => c.protocolVersion),
      ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"],
    );
    for (const c of clients) assert.is((await c.tools.listNotes()).isError, false);
    assert.ok(server.sessions.length >= 4);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
});

test.run();
