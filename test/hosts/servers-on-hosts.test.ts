// The generated everything server served by createFetchHandler inside workerd (Miniflare), Bun
// and Deno, each a child process, driven by the official SDK v2 client (pinned to 2026-07-28, and
// auto) and by mcpgen's generated typed client: tools, prompts, resources, MRTR elicitation
// rounds, a listen stream receiving a change, a task polled to its result, a refused Origin and
// an oversized body.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { request } from "node:http";
import { join } from "node:path";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { connectHttp } from "@mcpgen/runtime/http";
import { createEverythingClient, type EverythingClient } from "../../examples/everything/src/mcp/client.js";
import { tempDir } from "../helpers.js";
import { killAll } from "../conformance/procs.js";
import { HOSTS, type Served } from "./runtimes.js";
import { serveEverything } from "./everything-server.js";

function sdkClient(mode: "auto" | { pin: string }): ClientV2 {
  const client = new ClientV2({ name: "hosts-sdk-v2", version: "1.0.0" }, {
    capabilities: { elicitation: {} },
    versionNegotiation: { mode },
  } as never);
  client.setRequestHandler("elicitation/create", async (req: any) => {
    const props = Object.keys(req.params.requestedSchema?.properties ?? {});
    return {
      action: "accept",
      content: props.includes("name") ? { name: "Alice" } : props.includes("color") ? { color: "blue" } : { ok: true },
    } as never;
  });
  return client;
}

/**
 * The status of a POST whose answer may come before its body is sent (a refusal by Content-Length):
 * fetch reports that as a failed request, so node:http, where the answer is read regardless.
 */
function postEarlyAnswered(url: URL, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", headers: { ...headers, "content-length": String(Buffer.byteLength(body)) }, timeout: 20_000 },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("timeout", () => req.destroy(new Error("no answer within 20 s")));
    req.on("error", (e) => setTimeout(() => reject(e), 1000));
    req.end(body);
  });
}

function text(r: { content: unknown[] }): string {
  return (r.content[0] as { text: string }).text;
}

function typedClient(url: URL): Promise<EverythingClient> {
  return createEverythingClient(connectHttp(url), {
    clientInfo: { name: "hosts-typed", version: "1.0.0" },
    era: "modern",
    tasks: true,
    timeout: 15_000,
  });
}

async function within<T>(ms: number, p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const tmp = tempDir("mcpgen-hosts-server-");

for (const host of HOSTS) {
  const test = suite(`the everything server on ${host}`);
  let served: Served | undefined;

  test.before(async () => {
    // A small body limit: workerd resets a connection whose body it refused unread, so the refused
    // body must fit in the socket buffers for the 413 to be read back.
    served = await serveEverything(host, join(tmp.dir, host), "{ maxBodyBytes: 64 * 1024 }");
  });

  test.after(async () => {
    await served?.stop();
  });

  for (const mode of [{ pin: "2026-07-28" }, "auto"] as const) {
    test(`SDK v2 client (${typeof mode === "string" ? mode : mode.pin}): tools, prompts, resources and MRTR rounds`, async () => {
      const client = sdkClient(mode);
      await client.connect(new HttpV2(served!.url));
      try {
        assert.is(client.getNegotiatedProtocolVersion(), "2026-07-28");
        const { tools } = await client.listTools();
        assert.ok(tools.some((t) => t.name === "test_input_required_result_multi_round"));
        assert.is(
          text((await client.callTool({ name: "test_simple_text" })) as never),
          "This is a simple text response for testing.",
        );
        const { prompts } = await client.listPrompts();
        assert.ok(prompts.some((p) => p.name === "test_prompt_with_arguments"));
        const prompt: any = await client.getPrompt({
          name: "test_prompt_with_arguments",
          arguments: { arg1: "a", arg2: "b" },
        });
        assert.ok(prompt.messages.length > 0);
        const read: any = await client.readResource({ uri: "test://static-text" });
        assert.ok(read.contents[0].text.length > 0);
        assert.is(
          text((await client.callTool({ name: "test_input_required_result_elicitation", arguments: {} })) as never),
          "Hello, Alice!",
        );
        assert.is(
          text((await client.callTool({ name: "test_input_required_result_multi_round", arguments: {} })) as never),
          "Alice likes blue",
        );
      } finally {
        await client.close();
      }
    });
  }

  test("typed client: a listen stream receives a change", async () => {
    const client = await typedClient(served!.url);
    try {
      assert.is(client.era, "modern");
      let changed!: () => void;
      const change = new Promise<void>((r) => (changed = r));
      const sub = client.listen(
        { toolsListChanged: true },
        { onnotification: (m) => m === "notifications/tools/list_changed" && changed() },
      );
      assert.equal(await sub.acknowledged, { toolsListChanged: true });
      await client.callTool("test_trigger_tool_change", {});
      await within(10_000, change, "no change on the listen stream");
      await sub.close();
    } finally {
      await client.close();
    }
  });

  // On workerd the run outlives its tools/call through ctx.waitUntil (the Worker's fetch is the
  // handler itself); without it workerd drops the run's timers with the response.
  test("typed client: a task is polled to its result", async () => {
    const client = await typedClient(served!.url);
    try {
      const task = await client.tools.slowCompute.start({ seconds: 0.6, label: host });
      const seen: string[] = [];
      await within(
        15_000,
        (async () => {
          for await (const s of task) seen.push(s.status);
        })(),
        "the task did not finish",
      );
      assert.is(seen[seen.length - 1], "completed");
      assert.match(text(await task.result()), new RegExp(`Computed ${host} after 0.6s`));
    } finally {
      await client.close();
    }
  });

  test("a foreign Origin is refused (403) and an oversized body gets 413; the server carries on", async () => {
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
    };
    const ping = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "ping",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
    });
    const evil = await fetch(served!.url, {
      method: "POST",
      headers: { ...headers, origin: "https://evil.example" },
      body: ping,
      signal: AbortSignal.timeout(10_000),
    });
    assert.is(evil.status, 403, await evil.text());
    const big = await postEarlyAnswered(
      served!.url,
      headers,
      `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"${"x".repeat(96 * 1024)}"}}`,
    );
    assert.is(big, 413);
    const client = sdkClient({ pin: "2026-07-28" });
    await client.connect(new HttpV2(served!.url));
    assert.is(
      text((await client.callTool({ name: "test_simple_text" })) as never),
      "This is a simple text response for testing.",
    );
    await client.close();
  });

  test.run();
}

process.on("exit", () => {
  killAll();
  tmp.cleanup();
});
