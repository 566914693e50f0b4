// A user module that exports values built from the generated server and client (the session
// connect() resolves to, list results, transports) must compile under `declaration: true` while
// importing only the generated code and the transport entry points: every type those values
// carry has to be nameable through an entry point (TS2742 / TS2883 otherwise). Checked with the
// tsconfig `mcpgen init` writes (tsc --init defaults), on TypeScript 7 and 5.9.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/generate.js";
import { initProject } from "../../generator/init.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";
import { root } from "../manifest/helpers.js";

const probe = `import { StdioServerTransport, StdioClientTransport } from "@mcpgen/runtime/stdio";
import { createStreamableHttpServer, StreamableHttpClientTransport, connectHttp } from "@mcpgen/runtime/http";
import { createProbeServer } from "./mcp/server.js";
import { createProbeClient } from "./mcp/client.js";
import { handlers } from "./handlers.js";

export const server = createProbeServer(handlers);
export const session = await server.connect(new StdioServerTransport());
export const sessions = server.sessions;
export const http = createStreamableHttpServer({ onsession: async (t) => void (await server.connect(t)) });
export const url = await http.listen();
export const client = await createProbeClient(new StdioClientTransport({ command: "node", args: ["x"] }), { clientInfo: { name: "c", version: "1" } });
export const echoed = await client.tools.echo({ message: "x" });
export const prompt = await client.prompts.greet({ who: "x" });
export const tools = await client.listTools();
export const httpClient = new StreamableHttpClientTransport({ url: "http://127.0.0.1:1/mcp" });
export const probe = connectHttp("http://127.0.0.1:1/mcp");
`;

test("exported values of the facades' API are nameable in declarations (TypeScript 7 and 5.9)", async () => {
  const dir = tempDir("decl-");
  try {
    initProject({ dir, name: "probe" });
    await generate({ cwd: dir, cache: false });
    writeFileSync(join(dir, "src", "probe.ts"), probe);
    for (const compiler of ["typescript", "typescript-5"]) {
      const r = spawnSync(
        process.execPath,
        [
          join(root, "node_modules", compiler, "bin", "tsc"),
          "-p",
          ".",
          "--emitDeclarationOnly",
          "--outDir",
          `decl-${compiler}`,
        ],
        { cwd: dir, encoding: "utf8", timeout: 120_000 },
      );
      assert.is(r.status, 0, `${compiler}:\n${r.stdout}${r.stderr}`);
    }
  } finally {
    removeDir(dir);
  }
});

test.run();
