// End to end with real processes: the generated fixture server run as a child over stdio and over
// Streamable HTTP, driven with the generated client (every tool, prompt, resource and template).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createMemoryTransportPair } from "@mcpgen/runtime";
import { StdioClientTransport } from "@mcpgen/runtime/stdio";
import { createStreamableHttpServer, StreamableHttpClientTransport } from "@mcpgen/runtime/http";
import { bindings } from "../runtime/helpers/binding.js";
import { root } from "../manifest/helpers.js";
import { buildFixture, type BuiltFixture } from "./build-fixture.js";

let fx: BuiltFixture;
let clientMod: any;
let drive: (client: unknown) => Promise<number>;
const env = { ...process.env, MCPGEN_GENERATED: join(root, "runtime", "dist", "protocol") };
const clientOptions = { bindings, clientInfo: { name: "e2e-process", version: "1" }, timeout: 10_000 };

test.before(async () => {
  fx = await buildFixture("facades");
  clientMod = await fx.load("mcp/client.js");
  drive = (await fx.load("drive.js")).driveAll;
});
test.after(() => fx?.cleanup());

test("fixture compiles", () => {
  assert.is(fx.tsc.code, 0, fx.tsc.output);
});

test("in process (memory transport)", async () => {
  const server = (await fx.load("mcp/server.js")).createNotesServer((await fx.load("handlers.js")).createHandlers(), {
    bindings,
    onerror: () => {},
  });
  const [ct, st] = createMemoryTransportPair();
  await server.connect(st);
  const client = await clientMod.createNotesClient(ct, clientOptions);
  try {
    assert.is(await drive(client), 15);
  } finally {
    await client.close();
    await server.close();
  }
});

test("child process over stdio", async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(fx.dir, "out", "server-main.js"), "stdio"],
    env,
    stderr: "pipe",
    closeTimeoutMs: 2000,
    termTimeoutMs: 2000,
  });
  const client = await clientMod.createNotesClient(transport, clientOptions);
  try {
    assert.is(client.serverInfo.name, "notes");
    assert.is(await drive(client), 15);
  } finally {
    await client.close();
  }
});

function startHttpServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(fx.dir, "out", "server-main.js"), "http"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start in 15 s: ${err}`));
    }, 15_000);
    child.stderr!.on("data", (d) => (err += d));
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /LISTENING (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]! });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${err}`));
    });
  });
}

test("child process over Streamable HTTP (two sessions on one server)", async () => {
  const { child, url } = await startHttpServer();
  const exited = new Promise((r) => child.once("exit", r));
  try {
    const a = await clientMod.createNotesClient(new StreamableHttpClientTransport({ url }), clientOptions);
    const b = await clientMod.createNotesClient(new StreamableHttpClientTransport({ url }), {
      ...clientOptions,
      protocolVersion: "2025-06-18",
    });
    try {
      assert.is(await drive(a), 15);
      assert.is(b.protocolVersion, "2025-06-18");
      assert.is(await drive(b), 15);
    } finally {
      await a.close();
      await b.close();
    }
  } finally {
    child.kill("SIGTERM");
    const t = setTimeout(() => child.kill("SIGKILL"), 3000);
    await exited;
    clearTimeout(t);
  }
});

test("stateless Streamable HTTP: one server definition answers a fresh connection per POST", async () => {
  const server = (await fx.load("mcp/server.js")).createNotesServer((await fx.load("handlers.js")).createHandlers(), {
    bindings,
    onerror: () => {},
  });
  const http = createStreamableHttpServer({
    stateless: true,
    onsession: async (t, req) =>
      void (await server.connect(t, {
        stateless: { protocolVersion: req.headers["mcp-protocol-version"] as string | undefined },
      })),
  });
  const url = await http.listen();
  const client = await clientMod.createNotesClient(
    new StreamableHttpClientTransport({ url, openGetStream: false }),
    clientOptions,
  );
  try {
    const added = await client.tools.addNote({ title: "stateless" });
    assert.is(added.structured.title, "stateless");
    assert.is((await client.listTools()).length, 5);
    assert.is((await client.resources.note({ id: "1" })).contents[0].uri, "notes://note/1");
  } finally {
    await client.close();
    await http.close();
    await server.close();
  }
});

test("stateless Streamable HTTP: a plain connect(t) serves each POST without a handshake", async () => {
  const server = (await fx.load("mcp/server.js")).createNotesServer((await fx.load("handlers.js")).createHandlers(), {
    bindings,
    onerror: () => {},
  });
  const http = createStreamableHttpServer({ stateless: true, onsession: async (t) => void (await server.connect(t)) });
  const url = await http.listen();
  const client = await clientMod.createNotesClient(
    new StreamableHttpClientTransport({ url, openGetStream: false }),
    clientOptions,
  );
  try {
    // each call is a POST to a fresh connection that never saw initialize
    const added = await client.tools.addNote({ title: "plain" });
    assert.is(added.structured.title, "plain");
    assert.is((await client.listTools()).length, 5);
  } finally {
    await client.close();
    await http.close();
    await server.close();
  }
});

test.run();
