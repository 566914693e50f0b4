// The runtime's OAuth client inside workerd and under Bun: 401, protected-resource metadata,
// authorization-server metadata, dynamic registration, the PKCE code flow and the retried request,
// against a scripted authorization server and a guarded MCP server on Node (test/runtime/auth).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, tempDir } from "../helpers.js";
import { killAll } from "../conformance/procs.js";
import { startAs, startProtected, type FakeAs, type ProtectedServer } from "../runtime/auth/fake-as.js";
import { bundleFor, runOn, serveWorker } from "./runtimes.js";

const FIXTURE = JSON.stringify(join(repoRoot, "dist", "test", "hosts", "fixtures", "oauth-client.js"));
const tmp = tempDir("mcpgen-hosts-oauth-");
let as: FakeAs | undefined;
let mcp: ProtectedServer | undefined;

test.before(async () => {
  as = await startAs();
  mcp = await startProtected(() => as!.url);
});

test.after(async () => {
  await mcp?.server.close();
  await as?.close();
  killAll();
  tmp.cleanup();
});

function expectAuthorized(
  report: { result: unknown; issuer: string | undefined },
  where: string,
  registeredBefore: number,
): void {
  assert.is(report.issuer, as!.url, `${where}: tokens from the authorization server`);
  assert.ok(JSON.stringify(report.result).includes("content"), `${where}: the tool answered`);
  assert.is(as!.registrations.length, registeredBefore + 1, `${where}: registered dynamically`);
  assert.equal(mcp!.seen.at(-1)?.subject, "alice", `${where}: the server saw the principal`);
}

test("the OAuth client inside workerd: registration, PKCE code flow, the call succeeds", async () => {
  const bundle = await bundleFor(
    "workerd",
    `import { exerciseOAuth } from ${FIXTURE};
export default {
  async fetch(request) {
    try {
      return Response.json(await exerciseOAuth(new URL(request.url).searchParams.get("target")));
    } catch (e) {
      return new Response(String((e && e.stack) || e), { status: 500 });
    }
  },
};`,
  );
  const registered = as!.registrations.length;
  const worker = await serveWorker(bundle.code, join(tmp.dir, "workerd"));
  try {
    const res = await fetch(`${worker.url.origin}/?target=${encodeURIComponent(mcp!.url.href)}`, {
      signal: AbortSignal.timeout(30_000),
    });
    const body = await res.text();
    assert.is(res.status, 200, body);
    expectAuthorized(JSON.parse(body), "workerd", registered);
  } finally {
    await worker.stop();
  }
});

test("the OAuth client under Bun: the same flow", async () => {
  const bundle = await bundleFor(
    "bun",
    `import { exerciseOAuth } from ${FIXTURE};\nconsole.log("REPORT " + JSON.stringify(await exerciseOAuth(Bun.argv[2])));`,
  );
  const file = join(tmp.dir, "bun-oauth.mjs");
  writeFileSync(file, bundle.code);
  const registered = as!.registrations.length;
  const r = await runOn("bun", file, join(tmp.dir, "deno-dir"), 60_000, [mcp!.url.href]);
  const line = /^REPORT (.*)$/m.exec(r.output);
  assert.ok(r.code === 0 && line, `bun: exit ${r.code}\n${r.output}`);
  expectAuthorized(JSON.parse(line![1]!), "bun", registered);
});

test.run();
