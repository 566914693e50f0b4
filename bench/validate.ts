/**
 * Per-message validation cost of the emitted validators against in-memory ajv (draft-07 engine and
 * Ajv2020) compiled from the same schema. Not a test: `npx tsc -b && node dist/bench/validate.js`.
 */
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { formats } from "@mcpgen/runtime/abi/v8";
import { validatorOptions } from "../generator/emit/ajv-code.js";
import { loadValidators, readDocument } from "../test/generator/validators-fixture.js";

const REVISION = process.argv[2] ?? "2025-11-25";
const MODERN = REVISION >= "2026-07-28";
/** 2026-07-28 requires the per-request `_meta` and `resultType` on results. */
const meta = MODERN
  ? { _meta: { "io.modelcontextprotocol/protocolVersion": REVISION, "io.modelcontextprotocol/clientCapabilities": {} } }
  : {};
const resultType = MODERN ? { resultType: "complete" } : {};

type Case = { label: string; type: string; message: unknown };

const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const cases: Case[] = [
  {
    label: "CallToolRequest",
    type: "CallToolRequest",
    message: {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: {
        name: "get_weather",
        arguments: { city: "Paris", days: 3 },
        _meta: { progressToken: "p1", ...meta._meta },
      },
    },
  },
  {
    label: "CallToolResult (text+image)",
    type: "CallToolResult",
    message: {
      content: [
        { type: "text", text: "Sunny, 21°C" },
        { type: "image", data: png, mimeType: "image/png" },
      ],
      structuredContent: { temperature: 21 },
      isError: false,
      ...resultType,
    },
  },
  {
    label: "JSONRPCMessage: request",
    type: "JSONRPCMessage",
    message: {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "get_weather", arguments: { city: "Paris" }, ...meta },
    },
  },
  {
    label: "JSONRPCMessage: notification",
    type: "JSONRPCMessage",
    message: { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p1", progress: 0.5 } },
  },
  {
    label: "JSONRPCMessage: result response",
    type: "JSONRPCMessage",
    message: { jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "ok" }], ...resultType } },
  },
  {
    label: "JSONRPCMessage: error response",
    type: "JSONRPCMessage",
    message: { jsonrpc: "2.0", id: 7, error: { code: -32602, message: "Invalid params" } },
  },
];

/** Best-of-rounds mean nanoseconds per call. */
function measure(fn: ((data: unknown) => boolean) & { errors?: unknown }, data: unknown): number {
  if (!fn(data)) throw new Error(`benchmark message is invalid: ${JSON.stringify(fn.errors)}`);
  let iterations = 10_000;
  for (;;) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) fn(data);
    if (Number(process.hrtime.bigint() - t) > 50_000_000 || iterations >= 1e8) break;
    iterations *= 4;
  }
  let best = Infinity;
  for (let round = 0; round < 7; round++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) fn(data);
    best = Math.min(best, Number(process.hrtime.bigint() - t) / iterations);
  }
  return best;
}

const doc = readDocument(REVISION);
const defsKey = "$defs" in doc ? "$defs" : "definitions";
const { $schema: _dialect, ...withoutDialect } = doc;
const options = { ...validatorOptions(), inlineRefs: true, formats };
const draft07 = new Ajv(options);
draft07.addSchema(withoutDialect, "mcp");
const ajv2020 = new Ajv2020(options);
ajv2020.addSchema(withoutDialect, "mcp");
const inMemory = (ajv: Ajv | Ajv2020, type: string): ValidateFunction => ajv.getSchema(`mcp#/${defsKey}/${type}`)!;

const emitted = await loadValidators(REVISION);
console.log(`validation cost per message, MCP ${REVISION}, node ${process.version} (ns/op, best of 7 rounds)`);
console.log(["message".padEnd(34), "emitted", "Ajv(07)", "Ajv2020", "2020/emitted"].join("\t"));
for (const c of cases) {
  const e = measure(emitted.validator(c.type), c.message);
  const d = measure(inMemory(draft07, c.type), c.message);
  const a = measure(inMemory(ajv2020, c.type), c.message);
  console.log([c.label.padEnd(34), e.toFixed(1), d.toFixed(1), a.toFixed(1), (a / e).toFixed(1) + "x"].join("\t"));
}
