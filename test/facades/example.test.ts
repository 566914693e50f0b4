// The weather example: its checked-in generated code is what the manifest generates today, and
// its client script runs the server as a child process and gets typed answers from every entry.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { root } from "../manifest/helpers.js";

test("examples/weather/src/mcp is up to date with the manifest (mcpgen check)", () => {
  const r = spawnSync(
    process.execPath,
    [
      join(root, "dist", "bin", "mcpgen.js"),
      "check",
      "--manifest",
      "examples/weather/mcp.manifest.json",
      "--out",
      "examples/weather/src/mcp",
      "--no-cache",
    ],
    { cwd: root, encoding: "utf8", timeout: 120_000 },
  );
  assert.is(r.status, 0, `${r.stdout}${r.stderr}\nregenerate with: npm run example:weather:generate`);
});

test("the example client drives the example server over stdio (a dual-era pair stays in 2026-07-28)", () => {
  const r = spawnSync(process.execPath, [join(root, "dist", "examples", "weather", "src", "client.js")], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
  });
  assert.is(r.status, 0, r.stderr);
  const out = r.stdout;
  assert.match(out, /connected to weather-example 1\.0\.0 \(protocol 2026-07-28\)/);
  assert.match(out, /progress 3\/3/);
  assert.match(out, /Paris 2026-06-01: \w+, \d+\.\.\d+, wind 3/);
  assert.match(out, /stations: FR-PAR-01 \(75 m\), NO-OSL-01 \(94 m\), PT-LIS-01 \(n\/a m\)/);
  assert.match(out, /set_alert: Alert set for Oslo: wind above 15 \[team=ops\]/);
  assert.match(out, /set_alert \(unknown city\): isError=true/);
  assert.match(out, /plan-trip: 2 messages/);
  assert.match(out, /weather:\/\/forecast\/Denver\/monday: \{"date":"2026-06-01"/);
  assert.match(out, /completions: city "o" -> Oslo; day "t" -> tuesday, thursday/);
});

test.run();
