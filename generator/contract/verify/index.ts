/**
 * `mcpgen verify`: a running server against its manifest, ready for CI. The manifest goes
 * through the ordinary loader and model (its examples checked against inputSchema with the
 * generated validators' engine); the server is reached with the runtime's generic client.
 * Checks: protocol basics (the negotiated revision, and the era: a server whose manifest lists
 * 2026-07-28 must answer the `server/discover` probe, and one that also lists legacy revisions
 * must still accept `initialize`; liveness by ping in the legacy era, by an uncached
 * `server/discover` in 2026-07-28, which has no ping; an unknown tool answered with the JSON-RPC
 * error -32602), every list against the manifest (tool schemas compared by what they accept),
 * and every tool example's result against the tool's outputSchema.
 */
import { randomBytes } from "node:crypto";
import { McpError, type McpClient } from "@mcpgen/runtime";
import { compileToolSchema } from "../../emit/manifest/validators.js";
import { checkToolExamples } from "../../emit/manifest/tool-examples.js";
import { InputError } from "../../load/diagnostics.js";
import { loadManifest } from "../../load/manifest.js";
import { KNOWN_REVISIONS, type Manifest } from "../../load/manifest-format.js";
import { buildServerModel } from "../../model/build-server.js";
import type { ServerModel } from "../../model/server-ir.js";
import { connect, MODERN_REVISION, type ConnectOptions } from "../connect.js";
import { checkLists } from "./lists.js";
import { renderVerify, type Check, type VerifyReport } from "./report.js";

export type { Check, VerifyReport } from "./report.js";

export interface VerifyOptions extends ConnectOptions {
  manifest: string;
  /** Load the manifest like `generate --lenient`: invalid tool schemas (as pulled from a server) are warnings. */
  lenient?: boolean;
}

export interface VerifyResult extends VerifyReport {
  text: string;
  json: string;
}

const errorText = (e: unknown) =>
  e instanceof McpError ? `JSON-RPC error ${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);

async function protocolBasics(
  client: McpClient,
  manifest: Manifest,
  options: VerifyOptions,
  checks: Check[],
): Promise<void> {
  const speaks: readonly string[] = manifest.revisions ?? KNOWN_REVISIONS;
  const v = client.protocolVersion;
  if (!speaks.includes(v)) {
    checks.push({
      check: "protocol/version",
      status: "fail",
      message: `negotiated ${v}, but the manifest speaks ${speaks.join(", ")}`,
    });
  } else if (v < MODERN_REVISION && speaks.includes(MODERN_REVISION)) {
    // The client probes for 2026-07-28 first and only falls back to initialize when the server does not answer it.
    checks.push({
      check: "protocol/version",
      status: "fail",
      message: `negotiated ${v}: the manifest lists ${MODERN_REVISION}, but the server did not answer the server/discover probe`,
    });
  } else {
    checks.push({ check: "protocol/version", status: "pass", message: `negotiated ${v}, which the manifest lists` });
  }
  if (v >= MODERN_REVISION) {
    checks.push({ check: "protocol/ping", status: "skip", message: `${v} has no ping` });
    // McpClient.ping() in this era is an uncached server/discover: the liveness check 2026-07-28 leaves.
    await client.ping().then(
      () =>
        checks.push({ check: "protocol/discover", status: "pass", message: "an uncached server/discover answered" }),
      (e: unknown) => checks.push({ check: "protocol/discover", status: "fail", message: errorText(e) }),
    );
    const legacy = speaks
      .filter((r) => r < MODERN_REVISION)
      .sort()
      .reverse()[0];
    if (legacy !== undefined) await legacyStillServed(legacy, options, checks);
  } else {
    await client.ping().then(
      () => checks.push({ check: "protocol/ping", status: "pass", message: "answered" }),
      (e: unknown) => checks.push({ check: "protocol/ping", status: "fail", message: errorText(e) }),
    );
  }
  if (!(client.serverCapabilities as { tools?: unknown }).tools) return;
  await unknownTool(client, checks);
}

/**
 * Every revision makes "unknown tool" a protocol error, not a tool execution error: the tools
 * page's error handling lists it under JSON-RPC errors with -32602 in each revision (e.g.
 * https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling, and the
 * CallToolResult.isError text from 2025-06-18: errors in finding the tool are MCP error
 * responses); 2026-07-28's schema names it in InvalidParamsError (-32602). A tool result with
 * `isError: true` is for errors the tool itself raised, so it fails the check.
 */
const INVALID_PARAMS = -32602;

async function unknownTool(client: McpClient, checks: Check[]): Promise<void> {
  const check = "protocol/unknown-tool";
  const v = client.protocolVersion;
  const rule = `${v} requires the JSON-RPC error ${INVALID_PARAMS} (Invalid params) for an unknown tool`;
  const name = `mcpgen-verify-no-such-tool-${randomBytes(4).toString("hex")}`;
  const call = `tools/call of unknown tool ${JSON.stringify(name)}`;
  await client.callTool(name, {}).then(
    (r) => {
      if (r.isError !== true) return checks.push({ check, status: "fail", message: `${call} succeeded; ${rule}` });
      const said = r.content
        .map((c) => (c.type === "text" ? c.text : `[${c.type}]`))
        .join(" ")
        .slice(0, 120);
      return checks.push({
        check,
        status: "fail",
        message: `${call} was answered with a tool result (isError: true${said ? `, ${JSON.stringify(said)}` : ""}); ${rule}: isError is for errors the tool itself reports`,
      });
    },
    (e: unknown) =>
      checks.push(
        !(e instanceof McpError)
          ? { check, status: "fail", message: `${call}: no JSON-RPC error: ${errorText(e)}` }
          : e.code === INVALID_PARAMS
            ? { check, status: "pass", message: `rejected (${errorText(e)})` }
            : { check, status: "fail", message: `${call} was answered with ${errorText(e)}; ${rule}` },
      ),
  );
}

/** A dual-era manifest: the newest legacy revision it lists must still get through initialize (a connection of its own). */
async function legacyStillServed(revision: string, options: VerifyOptions, checks: Check[]): Promise<void> {
  const check = `protocol/legacy ${revision}`;
  let conn;
  try {
    conn = await connect({ ...options, protocolVersion: revision });
  } catch (e) {
    checks.push({
      check,
      status: "fail",
      message: `the manifest lists ${revision}, but initialize failed: ${errorText(e)}`,
    });
    return;
  }
  try {
    const got = conn.client.protocolVersion;
    checks.push(
      got === revision
        ? { check, status: "pass", message: `initialize negotiated ${revision}` }
        : { check, status: "fail", message: `the manifest lists ${revision}, but initialize negotiated ${got}` },
    );
  } finally {
    await conn.close();
  }
}

async function callExamples(
  client: McpClient,
  manifest: Manifest,
  model: ServerModel,
  served: Map<string, unknown>,
  checks: Check[],
): Promise<void> {
  for (const tool of model.tools) {
    const examples = manifest.tools?.[tool.index]?.examples ?? [];
    if (!served.has(tool.name)) continue;
    if (examples.length === 0) {
      checks.push({
        check: `tools/${tool.name} examples`,
        status: "skip",
        message: `no examples in the manifest (add "examples" at ${tool.pointer} to call it)`,
      });
      continue;
    }
    const output =
      tool.outputSchema !== null && !tool.outputFallback
        ? compileToolSchema(tool.outputSchema, `${tool.pointer}/outputSchema`)
        : null;
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
        const text = result.content
          .map((c) => (c.type === "text" ? c.text : `[${c.type}]`))
          .join(" ")
          .slice(0, 200);
        checks.push({
          check: label,
          status: "fail",
          message: expectError
            ? `expected a tool error (${at}/isError), got a result`
            : `the tool reported an error: ${text}`,
        });
        continue;
      }
      if (expectError || output === null) {
        checks.push({
          check: label,
          status: "pass",
          message: expectError ? "reported a tool error, as expected" : "returned a result (no outputSchema to check)",
        });
        continue;
      }
      if (result.structuredContent === undefined) {
        checks.push({
          check: label,
          status: "fail",
          message: `no structuredContent, but ${tool.pointer}/outputSchema declares one`,
        });
      } else if (!output.validate(result.structuredContent)) {
        checks.push({
          check: label,
          status: "fail",
          message: `structuredContent does not satisfy ${tool.pointer}/outputSchema: ${output.errors()}`,
        });
      } else {
        checks.push({ check: label, status: "pass", message: "structuredContent satisfies outputSchema" });
      }
    }
  }
}

export async function runVerify(options: VerifyOptions): Promise<VerifyResult> {
  const loaded = loadManifest(options.manifest, options.manifest, { lenient: options.lenient ?? false });
  const model = buildServerModel(loaded);
  const bad = checkToolExamples(loaded.manifest, model);
  if (bad.length)
    throw new InputError(
      options.manifest,
      bad.map((p) => ({ ...p, file: options.manifest, ...loaded.locate(p.pointer) })),
    );

  const conn = await connect(options);
  const checks: Check[] = [];
  try {
    await protocolBasics(conn.client, loaded.manifest, options, checks);
    const served = await checkLists(conn.client, loaded.manifest, checks, loaded.skills);
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
