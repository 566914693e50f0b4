#!/usr/bin/env node
/**
 * mcpgen's client for the official MCP conformance suite's client leg:
 *   MCP_CONFORMANCE_SCENARIO=<scenario> node main.js <server-url>
 * The suite appends the mock server's URL as the last argument and names the scenario in the
 * environment; exit 0 once the scenario's work is done, 1 on any error.
 */
import { authorizedSession } from "./auth.js";
import { connectDual, modernScenarios } from "./modern.js";
import { scenarios, type ScenarioContext } from "./scenarios.js";

function fail(msg: string): never {
  process.stderr.write(`conformance-client: ${msg}\n`);
  process.exit(1);
}

const url = process.argv[process.argv.length - 1];
if (process.argv.length < 3 || !url || !/^https?:\/\//.test(url))
  fail("usage: main.js <server-url> (with MCP_CONFORMANCE_SCENARIO set)");
const name = process.env.MCP_CONFORMANCE_SCENARIO;
if (!name) fail("MCP_CONFORMANCE_SCENARIO is not set");
// The suite names the wire it runs a scenario on; on 2026-07-28 the stateless protocol applies.
const modern = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION === "2026-07-28";
const table = modern ? modernScenarios : scenarios;
// auth/* scenarios: the dual-era client with OAuth, on whichever wire the scenario's server speaks.
const authorized = (ctx: ScenarioContext) => authorizedSession(ctx, (auth) => connectDual(ctx, auth));
const run = table[name] ?? (name.startsWith("auth/") ? authorized : undefined);
if (!run)
  fail(
    `scenario ${name} is not supported on ${modern ? "2026-07-28" : "2025-x"} (supported: ${Object.keys(table).join(", ")})`,
  );

let context: Record<string, unknown> | undefined;
if (process.env.MCP_CONFORMANCE_CONTEXT) {
  try {
    context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) as Record<string, unknown>;
  } catch {
    fail("MCP_CONFORMANCE_CONTEXT is not JSON");
  }
}

const ctx: ScenarioContext = {
  url,
  protocolVersion: process.env.MCP_CONFORMANCE_PROTOCOL_VERSION || undefined,
  context,
  log: (msg) => void process.stderr.write(`[${name}] ${msg}\n`),
};

// The suite allows 30 s per scenario; never outlive it.
const guard = setTimeout(() => fail(`${name}: gave up after 25 s`), 25_000);
guard.unref();

run(ctx).then(
  () => {
    clearTimeout(guard);
    process.exit(0);
  },
  (e: unknown) => fail(`${name}: ${e instanceof Error ? e.message : String(e)}`),
);
