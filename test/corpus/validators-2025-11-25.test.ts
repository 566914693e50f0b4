// Differential corpus for 2025-11-25 (the first 2020-12 schema): the 2026-07-28 examples whose
// type also exists here, plus hand-written messages of features only this revision has. The
// emitted validators (ajv's draft-07 engine) must agree with in-memory Ajv and Ajv2020 on every
// instance, accepted or not.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { inMemoryEngines, loadValidators, modelOf } from "../generator/validators-fixture.js";
import { agree, errorsDiffer, examples, mutants, verdicts, type Verdicts } from "./differential.js";

const REVISION = "2025-11-25";
const engines = inMemoryEngines(REVISION);
const types = new Set(modelOf(REVISION).types.map((t) => t.name));
const borrowed = examples().filter((e) => types.has(e.type));

/** Valid 2025-11-25 instances of features the 2026-07-28 examples do not show. */
const valid: Array<{ type: string; label: string; data: unknown }> = [
  {
    type: "InitializeRequest",
    label: "initialize",
    data: {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, tasks: { list: {}, cancel: {} } },
        clientInfo: { name: "c", version: "1", icons: [{ src: "https://example.com/i.png", sizes: ["48x48"] }] },
      },
    },
  },
  {
    type: "InitializeResult",
    label: "initialize result",
    data: {
      protocolVersion: "2025-11-25",
      capabilities: { tools: { listChanged: true }, tasks: { requests: { tools: { call: {} } } } },
      serverInfo: { name: "s", version: "1", websiteUrl: "https://example.com" },
      instructions: "hi",
    },
  },
  { type: "PingRequest", label: "ping", data: { jsonrpc: "2.0", id: "p", method: "ping" } },
  {
    type: "CallToolRequest",
    label: "task-augmented tools/call",
    data: {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "slow", arguments: {}, task: { ttl: 60000 } },
    },
  },
  {
    type: "CreateTaskResult",
    label: "task created",
    data: {
      task: {
        taskId: "t1",
        status: "working",
        createdAt: "2025-11-25T10:00:00Z",
        lastUpdatedAt: "2025-11-25T10:00:00Z",
        ttl: 60000,
      },
    },
  },
  {
    type: "GetTaskRequest",
    label: "tasks/get",
    data: { jsonrpc: "2.0", id: 4, method: "tasks/get", params: { taskId: "t1" } },
  },
  {
    type: "ElicitRequest",
    label: "URL-mode elicitation",
    data: {
      jsonrpc: "2.0",
      id: 5,
      method: "elicitation/create",
      params: { mode: "url", message: "Sign in", url: "https://example.com/auth", elicitationId: "e1" },
    },
  },
  {
    type: "ElicitationCompleteNotification",
    label: "elicitation complete",
    data: { jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId: "e1" } },
  },
  {
    type: "JSONRPCErrorResponse",
    label: "error without id",
    data: { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } },
  },
  {
    type: "JSONRPCMessage",
    label: "cancelled without requestId",
    data: { jsonrpc: "2.0", method: "notifications/cancelled", params: { reason: "bye" } },
  },
];

/** Invalid 2025-11-25 instances (each breaks one rule the schema states). */
const invalid: Array<{ type: string; label: string; data: unknown }> = [
  { type: "JSONRPCMessage", label: "jsonrpc 1.0", data: { jsonrpc: "1.0", id: 1, method: "ping" } },
  { type: "JSONRPCRequest", label: "null id", data: { jsonrpc: "2.0", id: null, method: "ping" } },
  { type: "JSONRPCMessage", label: "not an object", data: [1, 2] },
  {
    type: "CallToolRequest",
    label: "arguments not an object",
    data: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", arguments: [] } },
  },
  {
    type: "ElicitRequestURLParams",
    label: "URL mode without url",
    data: { mode: "url", message: "m", elicitationId: "e" },
  },
  { type: "Icon", label: "theme not in enum", data: { src: "https://example.com/i.png", theme: "blue" } },
  {
    type: "ImageContent",
    label: "data not base64",
    data: { type: "image", data: "not base64!", mimeType: "image/png" },
  },
  { type: "Resource", label: "uri without scheme", data: { name: "r", uri: "no scheme here" } },
  { type: "Annotations", label: "priority above 1", data: { priority: 1.5 } },
];

function describe(v: Verdicts): string {
  return JSON.stringify(v);
}

test("2026-07-28 examples: emitted, Ajv and Ajv2020 agree on every one", async () => {
  const emitted = await loadValidators(REVISION);
  assert.ok(borrowed.length >= 50, `only ${borrowed.length} examples have a 2025-11-25 type`);
  const disagreements = borrowed
    .map((e) => ({ e, v: verdicts(emitted, engines, e.type, e.data) }))
    .filter(({ v }) => !agree(v))
    .map(({ e, v }) => `${e.file}: ${describe(v)}`);
  assert.equal(disagreements, []);
});

test("examples that fit 2025-11-25: their mutants are rejected by all three", async () => {
  const emitted = await loadValidators(REVISION);
  const fitting = borrowed.filter((e) => engines.ajv2020(e.type)(e.data));
  assert.ok(fitting.length >= 30, `only ${fitting.length} examples fit 2025-11-25`);
  const failures: string[] = [];
  for (const example of fitting) {
    for (const mutant of mutants(REVISION, example.type, example.data)) {
      const v = verdicts(emitted, engines, example.type, mutant.data);
      if (v.emitted || v.draft07 || v.ajv2020) failures.push(`${example.file} with ${mutant.label}: ${describe(v)}`);
      const differ = errorsDiffer(emitted, engines, example.type);
      if (differ) failures.push(`${example.file} with ${mutant.label}: ${differ}`);
    }
  }
  assert.equal(failures, []);
});

test("hand-written valid messages are accepted by all three, and their mutants rejected", async () => {
  const emitted = await loadValidators(REVISION);
  for (const { type, label, data } of valid) {
    const v = verdicts(emitted, engines, type, data);
    assert.ok(
      v.emitted && v.draft07 && v.ajv2020,
      `${label}: ${describe(v)} ${JSON.stringify(emitted.validator(type).errors)}`,
    );
    for (const mutant of mutants(REVISION, type, data)) {
      const m = verdicts(emitted, engines, type, mutant.data);
      assert.ok(!m.emitted && !m.draft07 && !m.ajv2020, `${label} with ${mutant.label}: ${describe(m)}`);
    }
  }
});

test("hand-written invalid messages are rejected by all three", async () => {
  const emitted = await loadValidators(REVISION);
  for (const { type, label, data } of invalid) {
    const v = verdicts(emitted, engines, type, data);
    assert.ok(!v.emitted && !v.draft07 && !v.ajv2020, `${label}: ${describe(v)}`);
    assert.is(errorsDiffer(emitted, engines, type), null, label);
  }
});

test.run();
