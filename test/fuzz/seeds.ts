/**
 * Seed messages for fuzzing: the spec's own examples (schema/2026-07-28/examples, wrapped into
 * whole JSON-RPC messages where they are bare params or results) and well-formed 2025-11-25
 * requests and notifications for every method a client may send.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../helpers.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Msg = { [key: string]: Json };

function examples(): Msg[] {
  const dir = join(repoRoot, "schema", "2026-07-28", "examples");
  const out: Msg[] = [];
  for (const type of readdirSync(dir).sort()) {
    for (const file of readdirSync(join(dir, type)).sort()) {
      if (!file.endsWith(".json")) continue;
      const v = JSON.parse(readFileSync(join(dir, type, file), "utf8")) as Json;
      if (typeof v !== "object" || v === null || Array.isArray(v)) continue;
      if ("jsonrpc" in v) out.push(v);
      else if (type.endsWith("Result")) out.push({ jsonrpc: "2.0", id: out.length, result: v });
      else if (type.endsWith("Params")) out.push({ jsonrpc: "2.0", id: out.length, method: "tools/call", params: v });
    }
  }
  return out;
}

/** Requests and notifications a 2025-11-25 client sends, valid against the everything example. */
export const clientShapes: Msg[] = [
  { jsonrpc: "2.0", id: 1, method: "ping" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
  { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "test_simple_text", arguments: {} } },
  { jsonrpc: "2.0", id: 4, method: "prompts/list", params: { cursor: "0" } },
  {
    jsonrpc: "2.0",
    id: 5,
    method: "prompts/get",
    params: { name: "test_prompt_with_arguments", arguments: { arg1: "a", arg2: "b" } },
  },
  { jsonrpc: "2.0", id: 6, method: "resources/list" },
  { jsonrpc: "2.0", id: 7, method: "resources/read", params: { uri: "test://static-text" } },
  { jsonrpc: "2.0", id: 8, method: "resources/templates/list" },
  { jsonrpc: "2.0", id: 9, method: "resources/subscribe", params: { uri: "test://watched-resource" } },
  {
    jsonrpc: "2.0",
    id: 10,
    method: "completion/complete",
    params: { ref: { type: "ref/prompt", name: "test_prompt_with_arguments" }, argument: { name: "arg1", value: "t" } },
  },
  { jsonrpc: "2.0", id: 11, method: "logging/setLevel", params: { level: "debug" } },
  {
    jsonrpc: "2.0",
    id: 12,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "f", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3, reason: "x" } },
  { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } },
  { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
  { jsonrpc: "2.0", id: 13, result: {} },
  { jsonrpc: "2.0", id: 14, error: { code: -1, message: "no" } },
];

/** What a 2025-11-25 server sends a client. */
export const serverShapes: Msg[] = [
  { jsonrpc: "2.0", id: 0, result: {} },
  { jsonrpc: "2.0", id: 0, result: { tools: [{ name: "t", inputSchema: { type: "object" } }] } },
  { jsonrpc: "2.0", id: 0, result: { content: [{ type: "text", text: "hi" }] } },
  { jsonrpc: "2.0", id: 0, result: { contents: [{ uri: "a://b", text: "x" }] } },
  { jsonrpc: "2.0", id: 0, error: { code: -32602, message: "bad", data: { x: 1 } } },
  { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } },
  { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "test://watched-resource" } },
  { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
  { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 0, progress: 5 } },
  { jsonrpc: "2.0", id: "s1", method: "ping" },
  { jsonrpc: "2.0", id: "s2", method: "roots/list" },
  { jsonrpc: "2.0", id: "s3", method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } },
];

let cached: Msg[] | undefined;
export function specExamples(): Msg[] {
  return (cached ??= examples());
}
