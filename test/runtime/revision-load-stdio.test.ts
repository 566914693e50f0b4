// A generated dual-era stdio server (the bench's, as users run it) in a child process: a module
// load hook reports which revision method tables and tool validator modules it imports, so a
// connection that negotiated one revision is seen to have loaded that revision's table only, and
// the tool validators only once a tools/call arrived.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { tempDir } from "../helpers.js";
import { root } from "../manifest/helpers.js";
import { META } from "./modern/fixture.js";

const SERVER = join(root, "dist", "bench", "servers", "mcpgen-stdio-text.js");
const tmp = tempDir("mcpgen-revload-");
const hook = join(tmp.dir, "hook.mjs");
const register = join(tmp.dir, "register.mjs");
writeFileSync(
  hook,
  `import { writeSync } from "node:fs";
export async function load(url, context, next) {
  const m = /\\/protocol\\/([^/]+)\\/(?:methods|server-side|client-side|server-side\\/table)\\.js$/.exec(url) ?? /\\/bench\\/add\\/text\\/(validators|tool-validators|tools\\.ajv|tools\\.all-errors\\.ajv)\\.js$/.exec(url);
  if (m) writeSync(2, "loaded " + m[1] + "\\n");
  return next(url, context);
}
`,
);
writeFileSync(
  register,
  `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`,
);

/** Runs the server, sends `messages` and waits for `answers` responses; what it loaded, and the responses. */
function run(messages: unknown[], answers: number): Promise<{ loaded: string[]; responses: any[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", pathToFileURL(register).href, SERVER], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`timed out; stderr: ${stderr}`));
    }, 10_000);
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.stdout.on("data", (d) => {
      stdout += d;
      if (stdout.split("\n").filter((l) => l.trim() !== "").length >= answers) child.stdin.end();
    });
    child.on("error", reject);
    child.on("close", () => {
      clearTimeout(timer);
      const loaded = stderr
        .split("\n")
        .filter((l) => l.startsWith("loaded "))
        .map((l) => l.slice("loaded ".length));
      resolve({
        loaded,
        responses: stdout
          .split("\n")
          .filter((l) => l.trim() !== "")
          .map((l) => JSON.parse(l)),
      });
    });
    for (const m of messages) child.stdin.write(JSON.stringify(m) + "\n");
  });
}

const initialize = (protocolVersion: string) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "e2e", version: "1" } },
});
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };

test.after(() => tmp.cleanup());

for (const rev of ["2025-06-18", "2024-11-05"]) {
  test(`stdio, legacy ${rev}: only ${rev}'s table is imported, and no tool validators before a tools/call`, async () => {
    const { loaded, responses } = await run(
      [initialize(rev), initialized, { jsonrpc: "2.0", id: 2, method: "tools/list" }],
      2,
    );
    assert.is(responses[0].result.protocolVersion, rev);
    assert.is(responses[1].result.tools[0].name, "add");
    assert.equal(loaded, [rev]);
  });
}

test("stdio, legacy 2025-11-25 with a tools/call: that table and the tool validators", async () => {
  const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } };
  const { loaded, responses } = await run([initialize("2025-11-25"), initialized, call], 2);
  assert.equal(responses[1].result.content, [{ type: "text", text: "3" }]);
  // the runtime's tool checks are the all-errors validators (tool-validators.ts); validators.ts and
  // its first-failure validators are for users' own code
  assert.equal(loaded.sort(), ["2025-11-25", "tool-validators", "tools.all-errors.ajv"]);
});

test("stdio, 2026-07-28 request on the dual-era server: only 2026-07-28's table", async () => {
  const { loaded, responses } = await run(
    [{ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } }],
    1,
  );
  assert.is(responses[0].result.tools[0].name, "add");
  assert.equal(loaded, ["2026-07-28"]);
});

test.run();
