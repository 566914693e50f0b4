// 2026-07-28 `inputResponses` checked where a handler reads them: the params validator takes any
// map of objects, and an entry is checked against the result type of the input request it answers
// when the handler's elicit/sample/roots call looks it up. A malformed answer that is read is
// -32602 pointing into it; one no handler reads is ignored. The generated "everything" server over
// its fetch handler (Requests in, Responses out) and as a stdio child process.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { createFetchHandler } from "@mcpgen/runtime/fetch";
import { createServer } from "../../examples/everything/src/server.js";
import { mainJs, waitExit } from "./helpers/everything-process.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, sampling: {}, roots: {} },
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

type Call = (tool: string, inputResponses: unknown) => Promise<any>;

const server = createServer({ onerror: () => {} });
const handler = createFetchHandler(server, { onerror: () => {} });
let id = 0;
const overFetch: Call = async (tool, inputResponses) => {
  const body = {
    jsonrpc: "2.0",
    id: ++id,
    method: "tools/call",
    params: { name: tool, arguments: {}, inputResponses, _meta: META },
  };
  const res = await handler(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": tool,
      },
      body: JSON.stringify(body),
    }),
  );
  const text = await res.text();
  // A JSON answer, or one SSE message event carrying it.
  const json = res.headers.get("content-type")?.startsWith("text/event-stream")
    ? text
        .split("\n")
        .find((l) => l.startsWith("data: "))!
        .slice(6)
    : text;
  return JSON.parse(json);
};

const child = spawn(process.execPath, [mainJs, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
const inbox: any[] = [];
let wake: (() => void) | undefined;
createInterface({ input: child.stdout! }).on("line", (l) => {
  inbox.push(JSON.parse(l));
  wake?.();
});
async function reply(want: number, ms = 5000): Promise<any> {
  const deadline = Date.now() + ms;
  for (;;) {
    const i = inbox.findIndex((m) => m.id === want && !("method" in m));
    if (i >= 0) return inbox.splice(i, 1)[0];
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`no answer to ${want} within ${ms} ms; have ${JSON.stringify(inbox)}`);
    await new Promise<void>((r) => {
      wake = r;
      setTimeout(r, left);
    });
  }
}
const overStdio: Call = (tool, inputResponses) => {
  const n = ++id;
  child.stdin!.write(
    JSON.stringify({
      jsonrpc: "2.0",
      id: n,
      method: "tools/call",
      params: { name: tool, arguments: {}, inputResponses, _meta: META },
    }) + "\n",
  );
  return reply(n);
};

test.after(async () => {
  child.stdin!.end();
  await waitExit(child, 5000).catch(() => child.kill("SIGKILL"));
  await handler.close();
  await server.close();
});

const text = { type: "text", text: "Paris" };
const sampled = { role: "assistant", model: "m", content: text };

for (const [over, call] of [
  ["fetch handler", overFetch],
  ["stdio", overStdio],
] as const) {
  test(`${over}: a malformed elicitation answer the handler reads is -32602 pointing into it`, async () => {
    const r = await call("test_input_required_result_elicitation", { user_name: { action: "maybe" } });
    assert.is(r.error?.code, -32602, JSON.stringify(r));
    assert.is(r.error.data.pointer, "/params/inputResponses/user_name/action");
    assert.match(r.error.message, /inputResponses\["user_name"\]\/action \(elicitation\/create\)/);
    const content = await call("test_input_required_result_elicitation", {
      user_name: { action: "accept", content: { name: 1.5 } },
    });
    assert.is(content.error?.code, -32602);
    assert.is(content.error.data.pointer, "/params/inputResponses/user_name/content/name");
  });

  test(`${over}: a malformed sampling answer the handler reads is -32602 pointing into it`, async () => {
    let r = await call("test_input_required_result_sampling", {
      capital_question: { ...sampled, content: { type: "text" } },
    });
    assert.is(r.error?.code, -32602, JSON.stringify(r));
    assert.is(r.error.data.pointer, "/params/inputResponses/capital_question/content/text");
    r = await call("test_input_required_result_sampling", {
      capital_question: { ...sampled, content: [text, { type: "resource_link", uri: "u://x", name: "x" }] },
    });
    assert.is(r.error?.code, -32602, "a resource link is no sampling content");
    assert.is(r.error.data.pointer, "/params/inputResponses/capital_question/content/1/type");
    r = await call("test_input_required_result_sampling", { capital_question: { ...sampled, role: "system" } });
    assert.is(r.error?.data.pointer, "/params/inputResponses/capital_question/role");
    r = await call("test_input_required_result_list_roots", { client_roots: { roots: [{ uri: 7 }] } });
    assert.is(r.error?.data.pointer, "/params/inputResponses/client_roots/roots/0/uri");
  });

  test(`${over}: well-formed answers complete; a malformed answer no handler reads is ignored`, async () => {
    let r = await call("test_input_required_result_sampling", {
      capital_question: { ...sampled, content: [text], stopReason: "endTurn" },
      // The shape of a sampling result, under a key of nothing this run asks: never checked.
      user_name: { action: "maybe", content: 12 },
      other: { roots: "none" },
    });
    assert.is(r.result?.resultType, "complete", JSON.stringify(r));
    assert.match(r.result.content[0].text, /Paris/);
    r = await call("test_input_required_result_elicitation", {
      user_name: { action: "accept", content: { name: "Ada" } },
      capital_question: { role: "nobody" },
    });
    assert.is(r.result?.resultType, "complete", JSON.stringify(r));
  });

  test(`${over}: inputResponses that are not a map of objects are -32602 before any handler runs`, async () => {
    let r = await call("test_input_required_result_elicitation", { unread: 12345 });
    assert.is(r.error?.code, -32602, JSON.stringify(r));
    assert.is(r.error.data.pointer, "/params/inputResponses/unread");
    r = await call("test_input_required_result_elicitation", [{ action: "accept" }]);
    assert.is(r.error?.code, -32602);
    assert.is(r.error.data.pointer, "/params/inputResponses");
  });
}

test.run();
