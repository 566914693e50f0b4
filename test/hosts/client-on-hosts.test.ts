// mcpgen's generated typed client inside workerd, Bun and Deno, calling a Node-hosted mcpgen
// server (the everything example) in the 2026-07-28 era and in the legacy one. The client reaches
// each host as a bundle made with that host's export conditions, so it sends over fetch there
// (the runtime's `#http-driver`); the workerd bundle is also built with nothing of Node.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, tempDir } from "../helpers.js";
import { background, killAll, type Background } from "../conformance/procs.js";
import { NODE_DRIVER, WEB_DRIVER, bundleFor, runOn, serveWorker } from "./runtimes.js";
import type { ClientReport } from "./fixtures/typed-client.js";

const FIXTURE = JSON.stringify(join(repoRoot, "dist", "test", "hosts", "fixtures", "typed-client.js"));
const ERAS = ["modern", "legacy"] as const;

async function startNodeServer(): Promise<{ url: string; proc: Background }> {
  const proc = background(
    process.execPath,
    [join(repoRoot, "dist", "examples", "everything", "src", "main.js"), "--port", "0"],
    {},
  );
  const until = Date.now() + 20_000;
  for (;;) {
    const m = /listening on (http:\/\/\S+)/.exec(proc.tail());
    if (m) return { url: m[1]!, proc };
    if (proc.exited() !== undefined || Date.now() > until) {
      await proc.stop(1000);
      throw new Error(`the everything server did not start: ${proc.exited() ?? "timeout"}\n${proc.tail()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function expectReport(r: ClientReport, era: (typeof ERAS)[number], where: string): void {
  assert.is(r.era, era, `${where}: era`);
  assert.is(r.protocolVersion, era === "modern" ? "2026-07-28" : "2025-11-25", `${where}: revision`);
  assert.ok(r.tools > 10, `${where}: tools listed (${r.tools})`);
  assert.match(r.greeting, /host/, `${where}: greet answered`);
  assert.ok(r.prompts > 0, `${where}: prompts listed`);
  assert.ok(r.resource.length > 0, `${where}: resource read`);
}

let server: { url: string; proc: Background } | undefined;
const tmp = tempDir("mcpgen-hosts-client-");

test.before(async () => {
  server = await startNodeServer();
});

test.after(async () => {
  await server?.proc.stop(3000);
  killAll();
  tmp.cleanup();
});

test("the typed client inside workerd calls a Node-hosted mcpgen server (2026-07-28 and legacy)", async () => {
  const bundle = await bundleFor(
    "workerd",
    `import { exerciseTypedClient } from ${FIXTURE};
export default {
  async fetch(request) {
    const q = new URL(request.url).searchParams;
    try {
      return Response.json(await exerciseTypedClient(q.get("target"), q.get("era")));
    } catch (e) {
      return new Response(String((e && e.stack) || e), { status: 500 });
    }
  },
};`,
  );
  assert.ok(
    bundle.inputs.some((f) => WEB_DRIVER.test(f)),
    "the workerd bundle sends over fetch",
  );
  assert.not.ok(
    bundle.inputs.some((f) => NODE_DRIVER.test(f)),
    "and carries no node:http driver",
  );
  const worker = await serveWorker(bundle.code, join(tmp.dir, "workerd"));
  try {
    for (const era of ERAS) {
      const res = await fetch(`${worker.url.origin}/?target=${encodeURIComponent(server!.url)}&era=${era}`, {
        signal: AbortSignal.timeout(30_000),
      });
      const body = await res.text();
      assert.is(res.status, 200, body);
      expectReport(JSON.parse(body) as ClientReport, era, `workerd ${era}`);
    }
  } finally {
    await worker.stop();
  }
});

for (const host of ["bun", "deno"] as const) {
  test(`the typed client under ${host} calls a Node-hosted mcpgen server (2026-07-28 and legacy)`, async () => {
    const bundle = await bundleFor(
      host,
      `import { exerciseTypedClient } from ${FIXTURE};
const [target, era] = globalThis.Deno ? Deno.args : Bun.argv.slice(2);
console.log("REPORT " + JSON.stringify(await exerciseTypedClient(target, era)));`,
    );
    assert.ok(
      bundle.inputs.some((f) => WEB_DRIVER.test(f)),
      `the ${host} bundle sends over fetch`,
    );
    const file = join(tmp.dir, `${host}-client.mjs`);
    writeFileSync(file, bundle.code);
    for (const era of ERAS) {
      const r = await runOn(host, file, join(tmp.dir, "deno-dir"), 60_000, [server!.url, era]);
      const line = /^REPORT (.*)$/m.exec(r.output);
      assert.ok(r.code === 0 && line, `${host} ${era}: exit ${r.code}${r.timedOut ? " (timed out)" : ""}\n${r.output}`);
      expectReport(JSON.parse(line![1]!) as ClientReport, era, `${host} ${era}`);
    }
  });
}

test.run();
