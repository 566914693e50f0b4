// pull -> generate -> the typed client calls every tool: the weather example server is pulled
// over stdio with --client, a driver written against the *pulled* types is compiled with
// tsc --strict (so the pulled schemas type its arguments and results) and run against the server.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { runPull } from "../../generator/contract/pull/index.js";
import { repoRoot } from "../helpers.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";

const DRIVER = `import { StdioClientTransport } from "@mcpgen/runtime/stdio";
import { createWeatherExampleClient } from "./mcp/client.js";

const server = process.argv[2]!;
const weather = await createWeatherExampleClient(new StdioClientTransport({ command: process.execPath, args: [server] }), {
  clientInfo: { name: "roundtrip", version: "1.0.0" },
});
try {
  const forecast = await weather.tools.getForecast({ location: { city: "Paris" }, days: 2 });
  if (forecast.isError) throw new Error("get_forecast failed");
  const days: number = forecast.structured.days.length;
  const stations = await weather.tools.searchStations({ name: "paris", limit: 1 });
  if (stations.isError) throw new Error("search_stations failed");
  const ids: string[] = stations.structured.stations.map((s) => s.id);
  const alert = await weather.tools.setAlert({ city: "Paris", condition: { kind: "wind", speedAbove: 40 } });
  // @ts-expect-error the pulled inputSchema requires "condition"
  void (() => weather.tools.setAlert({ city: "Paris" }));
  console.log(JSON.stringify({ days, ids, alert: alert.isError }));
} finally {
  await weather.close();
}
`;

test("pull --client on the weather example, then its typed client calls every tool", async () => {
  const dir = tempDir("contract-roundtrip-");
  try {
    const server = join(repoRoot, "dist/examples/weather/src/server.js");
    await runPull({
      stdio: `${JSON.stringify(process.execPath)} ${server}`,
      out: join(dir, "mcp.manifest.json"),
      client: join(dir, "mcp"),
      cwd: dir,
    });
    writeFileSync(join(dir, "driver.ts"), DRIVER);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: "ES2022",
          lib: ["ES2023"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          skipLibCheck: true,
          types: ["node"],
          outDir: "out",
        },
        include: ["driver.ts", "mcp/**/*.ts"],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")],
      { encoding: "utf8", timeout: 120_000 },
    );
    assert.is(tsc.status, 0, `${tsc.stdout}${tsc.stderr}`);
    const run = spawnSync(process.execPath, [join(dir, "out/driver.js"), server], {
      encoding: "utf8",
      timeout: 30_000,
    });
    assert.is(run.status, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout.trim()), { days: 2, ids: ["FR-PAR-01"], alert: false });
  } finally {
    removeDir(dir);
  }
});

test.run();
