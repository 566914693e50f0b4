// The code-first notes example: its checked-in manifest is what `extract` derives from
// src/notes.ts today, its generated code is fresh (mcpgen check), and its typed client drives
// the server over stdio.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { extractManifest } from "../../generator/extract/index.js";
import { root } from "../manifest/helpers.js";

const example = "examples/notes/code-first";
const regenerate = "regenerate with: npm run example:notes:generate";

test("mcp.manifest.json is what extract derives from src/notes.ts", async () => {
  const r = await extractManifest(`${example}/src/notes.ts`, { cwd: root, name: "notes" });
  assert.is(r.text, readFileSync(join(root, example, "mcp.manifest.json"), "utf8"), regenerate);
  assert.equal(r.warnings, []);
});

test("src/mcp is up to date with the manifest (mcpgen check)", () => {
  const r = spawnSync(
    process.execPath,
    [
      join(root, "dist", "bin", "mcpgen.js"),
      "check",
      "--manifest",
      `${example}/mcp.manifest.json`,
      "--out",
      `${example}/src/mcp`,
      "--no-cache",
    ],
    { cwd: root, encoding: "utf8", timeout: 120_000 },
  );
  assert.is(r.status, 0, `${r.stdout}${r.stderr}\n${regenerate}`);
});

test("the typed client drives the code-first server over stdio", () => {
  const r = spawnSync(process.execPath, [join(root, "dist", example, "src", "client.js")], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
  });
  assert.is(r.status, 0, r.stderr);
  assert.is(
    r.stdout,
    [
      "added #1 Groceries",
      "search home: 1 (Groceries)",
      'notes://1: {"id":1,"title":"Groceries","body":"milk, eggs","tags":["home"]}',
      "summarise: 1 message(s)",
      "",
    ].join("\n"),
  );
});

test.run();
