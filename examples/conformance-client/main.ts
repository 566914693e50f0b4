#!/usr/bin/env node
/**
 * mcpgen's client for the official MCP conformance suite's client leg:
 *   MCP_CONFORMANCE_SCENARIO=<scenario> node main.js <server-url>
 * The suite appends the mock server's URL as the last argument and names the scenario in the
 * environment; exit 0 once the scenario's work is done, 1 on any error.
 */
import { authorizedSession } from "./auth.js";
import { connect, scenarios, type ScenarioContext } from "./scenarios.js";

function fail(msg: string): never {
  process.stderr.write(`conformance-client: ${msg}\n`);
  process.exit(1);
}

const url = process.argv[process.argv.length - 1];
if (process.argv.length < 3 || !url || !/^https?:\/\//.test(url)) fail("usage: main.js <server-url> (with MCP_CONFORMANCE_SCENARIO set)");
const name = process.env.MCP_CONFORMANCE_SCENARIO;
if (!name) fail("MCP_CONFORMANCE_SCENARIO is not set");
const run = scenarios[name] ?? (name.startsWith("auth/") ? (ctx: ScenarioContext) => authorizedSession(ctx, (auth) => connect(ctx, { auth, getStream: false })) : undefined);
if (!run) fail(`scenario ${name} is not supported (supported: ${Object.keys(scenarios).join(", ")})`);

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
