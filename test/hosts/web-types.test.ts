// What a Cloudflare Workers, Bun or Deno project compiles has no Node type in it: the generated
// client and server (the everything example's) with `@mcpgen/runtime/fetch`, `/http-client` and
// `/auth/client` (and the root, `/auth/server`, `/tasks/server`, `/skills/server`) typecheck under `tsc --strict` with `types: []`, the ES2022 and DOM libraries, the
// runtime's declarations checked too (no skipLibCheck) and no @types/node anywhere it can look:
// the project gets a copy of the runtime's package.json, its .d.ts files and its dependencies,
// nothing else (a symlink into the repository would let TypeScript find @types/node there).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { repoRoot, tempDir } from "../helpers.js";

const runtimeDir = join(repoRoot, "runtime");

/** Every file under `dir` whose name ends with `suffix`. */
function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p, suffix) : name.endsWith(suffix) ? [p] : [];
  });
}

/** A Worker-style project in `dir`: the runtime as its declarations, the generated everything bindings, one entry. */
function webProject(dir: string): void {
  const installed = join(dir, "node_modules", "@mcpgen", "runtime");
  mkdirSync(installed, { recursive: true });
  cpSync(join(runtimeDir, "package.json"), join(installed, "package.json"));
  for (const file of filesUnder(join(runtimeDir, "dist"), ".d.ts")) {
    const to = join(installed, relative(runtimeDir, file));
    mkdirSync(dirname(to), { recursive: true });
    cpSync(file, to);
  }
  const { dependencies } = JSON.parse(readFileSync(join(runtimeDir, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  for (const name of Object.keys(dependencies)) {
    const from = [join(runtimeDir, "node_modules", name), join(repoRoot, "node_modules", name)].find(existsSync);
    assert.ok(from, `${name} is installed`);
    cpSync(from!, join(dir, "node_modules", name), { recursive: true, dereference: true });
  }
  const generated = join(repoRoot, "examples", "everything", "src", "mcp");
  mkdirSync(join(dir, "src", "mcp"), { recursive: true });
  for (const name of readdirSync(generated).filter((n) => n.endsWith(".ts")))
    cpSync(join(generated, name), join(dir, "src", "mcp", name));
  writeFileSync(
    join(dir, "src", "worker.ts"),
    `import { createFetchHandler, InMemoryEventStore, type FetchHandlerOptions } from "@mcpgen/runtime/fetch";
import {
  connectHttp,
  HttpStatusError,
  LegacySseClientTransport,
  ModernHttpClientTransport,
  StreamableHttpClientTransport,
  type StreamableHttpClientOptions,
} from "@mcpgen/runtime/http-client";
import { InMemoryOAuthStore, OAuthClient, type AuthorizationUserAgent } from "@mcpgen/runtime/auth/client";
import { createEverythingClient } from "./mcp/client.js";
import { createEverythingServer, type EverythingHandlers } from "./mcp/server.js";
// The other entries a Worker may load are held to the same rule (/http, the node:http server, is Node's).
export * as core from "@mcpgen/runtime";
export * as resourceServer from "@mcpgen/runtime/auth/server";
export * as taskServer from "@mcpgen/runtime/tasks/server";
export * as skillsServer from "@mcpgen/runtime/skills/server";

declare const handlers: EverythingHandlers;
const options: FetchHandlerOptions = {
  allowedHosts: ["app.example.workers.dev"],
  eventStore: new InMemoryEventStore(),
  legacySse: { maxSessions: 10 },
};
const handler = createFetchHandler(createEverythingServer(handlers), options);

const userAgent: AuthorizationUserAgent = {
  redirectUri: "https://app.example.workers.dev/callback",
  authorize: async (url: URL) => url,
};

export async function callOut(url: URL, key: CryptoKey, service: { fetch: typeof fetch }): Promise<string> {
  const auth = new OAuthClient({
    server: url,
    userAgent,
    store: new InMemoryOAuthStore(),
    client: { client_id: "worker", private_key: key },
  });
  const httpOptions: StreamableHttpClientOptions = { url, auth, fetch: service.fetch };
  const transports = [
    new StreamableHttpClientTransport(httpOptions),
    new ModernHttpClientTransport({ url, fetch: service.fetch }),
    new LegacySseClientTransport({ url }),
  ];
  const client = await createEverythingClient(connectHttp(url, { auth }), {
    clientInfo: { name: "worker", version: "1.0.0" },
    era: "modern",
  });
  try {
    const greeting = await client.tools.greet({ name: "worker" });
    return greeting.content.map((c) => (c.type === "text" ? c.text : "")).join("") + transports.length;
  } catch (e) {
    if (e instanceof HttpStatusError) return String(e.status);
    throw e;
  } finally {
    await client.close();
  }
}

export default { fetch: (request: Request, env: unknown, ctx: { waitUntil(p: Promise<unknown>): void }) => handler(request, env, ctx) };
`,
  );
}

function tsc(
  dir: string,
  compiler: string,
  moduleResolution: "NodeNext" | "Bundler",
): { code: number; output: string } {
  const config = `tsconfig.${compiler}.${moduleResolution}.json`;
  writeFileSync(
    join(dir, config),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "ES2022",
        lib: ["ES2022", "DOM"],
        module: moduleResolution === "Bundler" ? "ESNext" : "NodeNext",
        moduleResolution,
        types: [],
        skipLibCheck: false,
      },
      files: ["src/worker.ts"],
    }),
  );
  const r = spawnSync(process.execPath, [join(repoRoot, "node_modules", compiler, "bin", "tsc"), "-p", config], {
    cwd: dir,
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: r.status ?? 1, output: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

test("the generated client and server with /fetch, /http-client and /auth/client typecheck with no Node types (TS 7 and 5.9)", () => {
  const tmp = tempDir("mcpgen-web-types-");
  try {
    webProject(tmp.dir);
    assert.not.ok(existsSync(join(tmp.dir, "node_modules", "@types")), "no @types package in the project");
    for (const [compiler, resolution] of [
      ["typescript", "NodeNext"],
      ["typescript", "Bundler"],
      ["typescript-5", "NodeNext"],
    ] as const) {
      const r = tsc(tmp.dir, compiler, resolution);
      assert.is(r.code, 0, `${compiler} (${resolution}):\n${r.output}`);
    }
  } finally {
    tmp.cleanup();
  }
});

test("a Node declaration in what the project compiles is caught: the check can fail", () => {
  const tmp = tempDir("mcpgen-web-types-");
  try {
    webProject(tmp.dir);
    // What the http-client declarations named before: node:http's Agent.
    const probe = join(tmp.dir, "node_modules", "@mcpgen", "runtime", "dist", "http-client", "probe.d.ts");
    writeFileSync(
      probe,
      `import type * as http from "node:http";\nexport type Agent = http.Agent;\n${readFileSync(probe, "utf8")}`,
    );
    const r = tsc(tmp.dir, "typescript", "NodeNext");
    assert.is.not(r.code, 0);
    assert.match(r.output, /probe\.d\.ts.*node:http/);
  } finally {
    tmp.cleanup();
  }
});

test.run();
