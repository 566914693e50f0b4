// The client's entries bundled for Cloudflare Workers as wrangler would (esbuild, the workerd
// export conditions): `@mcpgen/runtime/http-client`, `@mcpgen/runtime/auth/client` and a
// generated typed client carry no `node:` import and no Node global, and send over fetch. The
// check itself is shown to bite on both.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
import { repoRoot } from "../helpers.js";
import { NODE_DRIVER, WEB_DRIVER, bundleFor } from "./runtimes.js";

const CLIENT = JSON.stringify(join(repoRoot, "dist", "examples", "everything", "src", "mcp", "client.js"));
const ENTRY = `export * from "@mcpgen/runtime/http-client";
export * from "@mcpgen/runtime/auth/client";
export { createEverythingClient } from ${CLIENT};
`;

test("the client entries and a generated client bundle for workerd with nothing of Node, over fetch", async () => {
  const { inputs, code } = await bundleFor("workerd", ENTRY);
  assert.ok(
    inputs.some((f) => WEB_DRIVER.test(f)),
    "the fetch driver",
  );
  assert.not.ok(
    inputs.some((f) => NODE_DRIVER.test(f)),
    "not the node:http one",
  );
  assert.ok(code.includes("OAuthClient") && code.includes("ModernHttpClientTransport"));
});

test("Bun and Deno get the fetch driver too; Node keeps node:http", async () => {
  for (const host of ["bun", "deno"] as const) {
    const { inputs } = await bundleFor(host, ENTRY);
    assert.ok(
      inputs.some((f) => WEB_DRIVER.test(f)),
      host,
    );
  }
  const { build } = await import("esbuild");
  const node = await build({
    stdin: { contents: ENTRY, resolveDir: repoRoot },
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    metafile: true,
    logLevel: "silent",
  });
  assert.ok(
    Object.keys(node.metafile.inputs).some((f) => NODE_DRIVER.test(f)),
    "node",
  );
});

test("the check bites: a node: import or a Node global fails the workerd bundle", async () => {
  const failed = async (source: string): Promise<string> => {
    try {
      await bundleFor("workerd", source);
    } catch (e) {
      return (e as Error).message;
    }
    return "";
  };
  assert.match(
    await failed(`import { createServer } from "node:http"; export const s = createServer;`),
    /Node reaches the workerd bundle: import of "node:http" from workerd-entry\.js/,
  );
  // wrangler warns of a builtin's import even when the code using it is dropped.
  assert.match(await failed(`import { createHash } from "node:crypto"; export const n = 1;`), /"node:crypto"/);
  assert.match(await failed(`import { readFile } from "fs"; export const r = readFile;`), /import of "fs"/);
  assert.match(
    await failed(`export const b = () => Buffer.from("x");`),
    /Node reaches the workerd bundle: Node globals read: Buffer/,
  );
  assert.match(await failed(`export const p = () => process.env.X;`), /Node globals read: process/);
  assert.match(await failed(`export const p = typeof setImmediate;`), /Node globals read: setImmediate/);
  assert.is(await failed(`export const p = () => globalThis.process?.env; const process = 1; export { process };`), "");
});

test.run();
