/**
 * `mcpgen verify`: a running server against its manifest, ready for CI. The manifest goes
 * through the ordinary loader and model (its examples checked against inputSchema with the
 * generated validators' engine); the server is reached with the runtime's generic client.
 * Checks: protocol basics (negotiated revision, ping where the revision has it, an unknown tool
 * answered with an error), every list against the manifest, and every tool example's result
 * against the tool's outputSchema.
 */
import { randomBytes } from "node:crypto";
import { McpError, type McpClient } from "@mcpgen/runtime";
import { compileToolSchema } from "../../emit/manifest-validators.js";
import { checkToolExamples } from "../../emit/tool-examples.js";
import { InputError } from "../../load/diagnostics.js";
import { loadManifest } from "../../load/manifest.js";
import { KNOWN_REVISIONS, type Manifest } from "../../load/manifest-format.js";
import { buildServerModel } from "../../model/build-server.js";
import type { ServerModel } from "../../model/server-ir.js";
import { connect, type ConnectOptions } from "../connect.js";
import { checkLists } from "./lists.js";
import { renderVerify, type Check, type VerifyReport } from "./report.js";

export type { Check, VerifyReport } from "./report.js";

export interface VerifyOptions extends ConnectOptions {
  manifest: string;
}

export interface VerifyResult extends VerifyReport {
  text: string;
  json: string;
}

const errorText = (e: unknown) => (e instanceof McpError ? `JSON-RPC error ${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e));

async function protocolBasics(client: McpClient, manifest: Manifest, checks: Check[]): Promise<void> {
  const speaks = manifest.revisions ?? [...KNOWN_REVISIONS];
  const v = client.protocolVersion;
  checks.push(
    speaks.includes(v as never)
      ? { check: "protocol/version", status: "pass", message: `negotiated ${v}, which the manifest lists` }
      : { check: "protocol/version", status: "fail", message: `negotiated ${v}, but the manifest speaks ${speaks.join(", ")}` },
  );
  if (v >= "2026-07-28") {
    checks.push({ check: "protocol/ping", status: "skip", message: `${v} has no ping` });
  } else {
    await client.ping().then(
      () => checks.push({ check: "protocol/ping", status: "pass", message: "answered" }),
      (e: unknown) => checks.push({ check: "protocol/ping", status: "fail", message: errorText(e) }),
    );
  }
  if (!(client.serverCapabilities as { tools?: unknown }).tools) return;
  const name = `mcpgen-verify-no-such-tool-${randomBytes(4).toString("hex")}`;
  await client.callTool(name, {}).then(
    (r) =>
      checks.push(
        r.isError === true
          ? { check: "protocol/unknown-tool", status: "pass", message: "answered with a tool error (isError); MCP asks for a JSON-RPC error (-32602)" }
          : { check: "protocol/unknown-tool", status: "fail", message: `tools/call of unknown tool ${JSON.stringify(name)} succeeded; expected a JSON-RPC error (-32602)` },
      ),
    (e: unknown) =>
      checks.push(
        e instanceof McpError
          ? { check: "protocol/unknown-tool", status: "pass", message: `rejected (${errorText(e)})` }
          : { check: "protocol/unknown-tool", status: "fail", message: `no JSON-RPC error: ${errorText(e)}` },
      ),
  );
}

async function callExamples(client: McpClient, manifest: Manifest, model: ServerModel, served: Map<string, unknown>, checks: Check[]): Promise<void> {
  for (const tool of model.tools) {
    const examples = manifest.tools?.[tool.index]?.examples ?? [];
    if (!served.has(tool.name)) continue;
    if (examples.length === 0) {
      checks.push({ check: `tools/${tool.name} examples`, status: "skip", message: `no examples in the manifest (add "examples" at ${tool.pointer} to call it)` });
      continue;
    }
    const output = tool.outputSchema !== null && !tool.outputFallback ? compileToolSchema(tool.outputSchema, `${tool.pointer}/outputSchema`) : null;
    for (const [i, example] of examples.entries()) {
      const label = `tools/${tool.name} example ${i}${example.name ? ` (${example.name})` : ""}`;
      const at = `${tool.pointer}/examples/${i}`;
      let result: Awaited<ReturnType<McpClient["callTool"]>>;
      try {
        result = await client.callTool(tool.name, example.arguments);
      } catch (e) {
        checks.push({ check: label, status: "fail", message: `call failed: ${errorText(e)}` });
        continue;
      }
      const expectError = example.isError === true;
      if ((result.isError === true) !== expectError) {
        const text = result.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join(" ").slice(0, 200);
        checks.push({ check: label, status: "fail", message: expectError ? `expected a tool error (${at}/isError), got a result` : `the tool reported an error: ${text}` });
        continue;
      }
      if (expectError || output === null) {
        checks.push({ check: label, status: "pass", message: expectError ? "reported a tool error, as expected" : "returned a result (no outputSchema to check)" });
        continue;
      }
      if (result.structuredContent === undefined) {
        checks.push({ check: label, status: "fail", message: `no structuredContent, but ${tool.pointer}/outputSchema declares one` });
      } else if (!output.validate(result.structuredContent)) {
        checks.push({ check: label, status: "fail", message: `structuredContent does not satisfy ${tool.pointer}/outputSchema: ${output.errors()}` });
      } else {
        checks.push({ check: label, status: "pass", message: "structuredContent satisfies outputSchema" });
      }
    }
  }
}

export async function runVerify(options: VerifyOptions): Promise<VerifyResult> {
  // The manifest describes a server that may publish broken schemas (often pulled from it): lenient, as pull is.
  const loaded = loadManifest(options.manifest, options.manifest, { lenient: true });
  const model = buildServerModel(loaded);
  const bad = checkToolExamples(loaded.manifest, model);
  if (bad.length) throw new InputError(options.manifest, bad.map((p) => ({ ...p, file: options.manifest, ...loaded.locate(p.pointer) })));

  const conn = await connect(options);
  const checks: Check[] = [];
  try {
    await protocolBasics(conn.client, loaded.manifest, checks);
    const served = await checkLists(conn.client, loaded.manifest, checks);
    await callExamples(conn.client, loaded.manifest, model, served, checks);
  } finally {
    await conn.close();
  }
  const report: VerifyReport = {
    server: conn.target,
    manifest: options.manifest,
    protocolVersion: conn.client.protocolVersion,
    ok: checks.every((c) => c.status !== "fail"),
    checks,
  };
  return { ...report, text: renderVerify(report), json: JSON.stringify(report, null, 2) + "\n" };
}
