// createFetchHandler's hook for work that outlives a response: a tool that becomes a task is
// answered with its task while its run goes on, and that run is handed to the host's waitUntil
// (the option here; a Worker's ctx.waitUntil in test/hosts), which settles once the outcome is on
// the task. Served by @hono/node-server on 127.0.0.1, driven by the generated typed client.
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { connectHttp } from "@mcpgen/runtime/http";
import { createFetchHandler } from "@mcpgen/runtime/fetch";
import { createServer } from "../../../examples/everything/src/server.js";
import { createEverythingClient } from "../../../examples/everything/src/mcp/client.js";

const server = createServer({ onerror: () => {} });
/** What the handler asked the host to wait for, and when each settled. */
const kept: { settled: boolean }[] = [];
const waits: Promise<unknown>[] = [];
const handler = createFetchHandler(server, {
  waitUntil: (p) => {
    const k = { settled: false };
    kept.push(k);
    waits.push(p.then(() => (k.settled = true)));
  },
});
const http = serve({ fetch: handler, port: 0, hostname: "127.0.0.1" }) as Server;
await new Promise<void>((resolve) => (http.listening ? resolve() : http.once("listening", () => resolve())));
const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);

test.after(async () => {
  await handler.close();
  await server.close();
  await new Promise<void>((resolve) => {
    http.close(() => resolve());
    http.closeAllConnections();
  });
});

test("a call answered within its request asks nothing of waitUntil", async () => {
  const client = await createEverythingClient(connectHttp(url), {
    clientInfo: { name: "wait-until", version: "1.0.0" },
    era: "modern",
    tasks: true,
    timeout: 10_000,
  });
  try {
    assert.is((await client.tools.greet({ name: "Ada" })).content[0]!.type, "text");
    assert.is(kept.length, 0);
  } finally {
    await client.close();
  }
});

test("a task's run is handed to waitUntil when its tools/call is answered, and settles once the task has its result", async () => {
  const client = await createEverythingClient(connectHttp(url), {
    clientInfo: { name: "wait-until", version: "1.0.0" },
    era: "modern",
    tasks: true,
    timeout: 10_000,
  });
  try {
    const task = await client.tools.slowCompute.start({ seconds: 0.4, label: "kept" });
    assert.is(kept.length, 1, "the run was handed to waitUntil");
    assert.is(kept[0]!.settled, false, "the run is still going when the task is answered");
    let last = "";
    for await (const s of task) last = s.status;
    assert.is(last, "completed");
    await Promise.race([
      Promise.all(waits),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error("waitUntil's promise did not settle")), 5_000).unref(),
      ),
    ]);
    assert.is(kept[0]!.settled, true);
  } finally {
    await client.close();
  }
});

test.run();
