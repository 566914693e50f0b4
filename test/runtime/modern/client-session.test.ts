// The 2026-07-28 client lifecycle against a scripted server on the in-memory transport:
// per-request _meta, resultType rules, the MRTR retry loop, -32022 retry, cache, listen.
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  InputRoundsExceededError,
  InvalidResultError,
  McpError,
  ProtocolVersionError,
  SubscriptionAckError,
  type ModernClientSession,
} from "@mcpgen/runtime";
import { MetaKey, connectModernClient, type ModernClientOptions } from "@mcpgen/runtime/internal";
import { dual, modern } from "../helpers/binding.js";
import { DISCOVERED, scriptedPeer, tick, type Answer, type Peer } from "./peer.js";

const clientInfo = { name: "modern-test", version: "1.0.0" };

async function connect(
  answer: Answer,
  extra: Partial<ModernClientOptions> = {},
): Promise<{ peer: Peer; client: ModernClientSession; errors: Error[] }> {
  const peer = await scriptedPeer(answer);
  const errors: Error[] = [];
  const client = await connectModernClient({
    transport: peer.transport,
    bindings: dual,
    clientInfo,
    timeout: 2000,
    onerror: (e) => errors.push(e),
    ...extra,
  });
  return { peer, client, errors };
}

const TEXT = (text: string) => ({ resultType: "complete", content: [{ type: "text", text }] });

test("every request carries the client's _meta; discover fills server info and capabilities", async () => {
  const { peer, client } = await connect((m) => (m.method === "tools/call" ? TEXT("ok") : undefined), {
    capabilities: { sampling: {} },
    logLevel: "warning",
  });
  assert.is(client.protocolVersion, "2026-07-28");
  assert.equal(client.serverInfo, { name: "scripted", version: "1.0.0" });
  assert.equal(client.serverCapabilities, DISCOVERED.capabilities);
  assert.equal(client.supportedVersions, ["2026-07-28"]);
  await client.request(
    "tools/call",
    { name: "t", arguments: {}, _meta: { "com.example/trace": "x" } },
    { onprogress: () => {} },
  );
  const call = peer.requests("tools/call")[0]!;
  const meta = call.params!._meta;
  assert.is(meta[MetaKey.protocolVersion], "2026-07-28");
  assert.equal(meta[MetaKey.clientCapabilities], { sampling: {} });
  assert.equal(meta[MetaKey.clientInfo], clientInfo);
  assert.is(meta[MetaKey.logLevel], "warning");
  assert.is(meta["com.example/trace"], "x", "the caller's own _meta keys are kept");
  assert.is(meta.progressToken, call.id, "the progress token is the request id");
  const discover = peer.requests("server/discover")[0]!;
  assert.is(discover.params!._meta[MetaKey.protocolVersion], "2026-07-28");
  client.setLoggingLevel(undefined);
  await client.request("tools/call", { name: "t" });
  assert.not.ok(MetaKey.logLevel in peer.requests("tools/call")[1]!.params!._meta, "no logLevel once cleared");
  await client.close();
});

test("resultType: absent means complete, unknown is an invalid result, input_required only for the three methods", async () => {
  const { client } = await connect((m) => {
    const name = m.params?.name;
    if (m.method === "tools/list") return { resultType: "input_required", requestState: "x" };
    if (name === "legacy") return { content: [{ type: "text", text: "no resultType" }] };
    if (name === "weird") return { resultType: "task", content: [] };
    if (name === "invalid") return { resultType: "complete", content: "not an array" };
    return undefined;
  });
  const r = await client.request("tools/call", { name: "legacy" });
  assert.is(r.resultType, "complete");
  const weird = await client.request("tools/call", { name: "weird" }).catch((e: unknown) => e);
  assert.instance(weird, InvalidResultError);
  assert.match((weird as Error).message, /resultType/);
  assert.instance(await client.request("tools/call", { name: "invalid" }).catch((e: unknown) => e), InvalidResultError);
  const list = await client.request("tools/list", {}).catch((e: unknown) => e);
  assert.instance(list, InvalidResultError);
  assert.match((list as Error).message, /may not answer input_required/);
  await client.close();
});

test("MRTR: all responses built first, retry = same params + inputResponses + requestState echoed byte-exact, new id each round", async () => {
  const state1 = '{"nonce":"a b\\u00e9","n":1}';
  const { peer, client } = await connect(
    (m) => {
      if (m.method !== "tools/call") return undefined;
      const p = m.params!;
      if (p.inputResponses === undefined) {
        return {
          resultType: "input_required",
          requestState: state1,
          inputRequests: {
            name: {
              method: "elicitation/create",
              params: {
                message: "name?",
                requestedSchema: { type: "object", properties: { name: { type: "string" } } },
              },
            },
            llm: {
              method: "sampling/createMessage",
              params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 },
            },
          },
        };
      }
      if (p.inputResponses.roots === undefined) {
        // Round 2 asks for roots without any state: the retry must not carry the old one.
        return { resultType: "input_required", inputRequests: { roots: { method: "roots/list" } } };
      }
      return TEXT(`done ${p.inputResponses.roots.roots[0].uri}`);
    },
    {
      capabilities: { elicitation: {}, sampling: {}, roots: {} },
      handlers: {
        "elicitation/create": () => ({ action: "accept", content: { name: "Ada" } }),
        "sampling/createMessage": async () => {
          await tick(5);
          return { role: "assistant", content: { type: "text", text: "yo" }, model: "m" };
        },
        "roots/list": () => ({ roots: [{ uri: "file:///r" }] }),
      },
    },
  );
  const r = await client.request("tools/call", { name: "greet", arguments: { who: "x" } });
  assert.equal(r.content, [{ type: "text", text: "done file:///r" }]);
  const calls = peer.requests("tools/call");
  assert.is(calls.length, 3);
  assert.is(new Set(calls.map((c) => c.id)).size, 3, "a new JSON-RPC id per round");
  for (const c of calls) {
    assert.is(c.params!.name, "greet");
    assert.equal(c.params!.arguments, { who: "x" });
    assert.is(c.params!._meta[MetaKey.protocolVersion], "2026-07-28");
  }
  assert.is(calls[0]!.params!.inputResponses, undefined);
  assert.is(calls[0]!.params!.requestState, undefined);
  assert.equal(calls[1]!.params!.inputResponses, {
    name: { action: "accept", content: { name: "Ada" } },
    llm: { role: "assistant", content: { type: "text", text: "yo" }, model: "m" },
  });
  assert.is(calls[1]!.params!.requestState, state1, "requestState echoed exactly");
  assert.equal(calls[2]!.params!.inputResponses, { roots: { roots: [{ uri: "file:///r" }] } });
  assert.not.ok("requestState" in calls[2]!.params!, "no requestState when the server gave none");
  await client.close();
});

test("MRTR: requestState alone is retried at once; a server that never completes is bounded", async () => {
  let n = 0;
  const { peer, client } = await connect(
    (m) => {
      if (m.method === "prompts/get")
        return n++ < 2
          ? { resultType: "input_required", requestState: `s${n}` }
          : { resultType: "complete", messages: [] };
      if (m.method === "tools/call") return { resultType: "input_required", requestState: "again" };
      return undefined;
    },
    { maxInputRounds: 3 },
  );
  await client.request("prompts/get", { name: "p" });
  assert.equal(
    peer.requests("prompts/get").map((m) => m.params!.requestState),
    [undefined, "s1", "s2"],
  );
  const e = await client.request("tools/call", { name: "loop" }).catch((x: unknown) => x);
  assert.instance(e, InputRoundsExceededError);
  assert.is(peer.requests("tools/call").length, 4, "first call + 3 retries, then give up");
  await client.close();
});

test("MRTR: bad input requests are invalid results; an unhandled kind is refused; abort abandons the loop", async () => {
  let release!: () => void;
  const { peer, client } = await connect(
    (m) => {
      const name = m.params?.name;
      if (name === "no-object") return { resultType: "input_required", inputRequests: [1, 2] };
      if (name === "bad-method")
        return { resultType: "input_required", inputRequests: { k: { method: "tools/call", params: {} } } };
      if (name === "empty") return { resultType: "input_required" };
      if (name === "sample")
        return {
          resultType: "input_required",
          inputRequests: { k: { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } } },
        };
      if (name === "ask" || name === "hang") {
        const message = name === "hang" ? "never" : "?";
        return {
          resultType: "input_required",
          inputRequests: {
            k: {
              method: "elicitation/create",
              params: { message, requestedSchema: { type: "object", properties: {} } },
            },
          },
        };
      }
      return undefined;
    },
    {
      handlers: {
        "elicitation/create": (params: { message: string }) =>
          params.message === "never"
            ? new Promise(() => {})
            : new Promise((r) => (release = () => r({ action: "decline" }))),
      },
    },
  );
  for (const name of ["no-object", "bad-method", "empty"]) {
    assert.instance(await client.request("tools/call", { name }).catch((e: unknown) => e), InvalidResultError, name);
  }
  const unhandled = await client.request("tools/call", { name: "sample" }).catch((e: unknown) => e);
  assert.instance(unhandled, McpError);
  assert.match((unhandled as Error).message, /sampling\/createMessage/);
  const ac = new AbortController();
  const pending = client.request("tools/call", { name: "ask" }, { signal: ac.signal }).catch((e: unknown) => e);
  await tick(5);
  ac.abort(new Error("user gave up"));
  release();
  const aborted = await pending;
  assert.instance(aborted, Error);
  assert.is((aborted as Error).message, "user gave up");
  await tick(5);
  assert.is(peer.requests("tools/call").filter((m) => m.params!.name === "ask").length, 1, "no retry after abort");
  // A handler that never settles does not hold an aborted call.
  const ac2 = new AbortController();
  const hung = client.request("tools/call", { name: "hang" }, { signal: ac2.signal }).catch((e: unknown) => e);
  await tick(5);
  ac2.abort(new Error("enough"));
  assert.is(((await hung) as Error).message, "enough");
  await client.close();
});

test("-32022: discover and requests retry once with a version the server lists; no common version is an error", async () => {
  let discoverRefusals = 0;
  let callRefusals = 0;
  const { peer, client } = await connect((m) => {
    if (m.method === "server/discover" && discoverRefusals++ === 0) {
      return {
        error: {
          code: -32022,
          message: "Unsupported protocol version",
          data: { supported: ["2026-07-28"], requested: "2026-07-28" },
        },
      };
    }
    if (m.method === "tools/call") {
      return m.params!.name === "never"
        ? {
            error: {
              code: -32022,
              message: "Unsupported",
              data: { supported: ["2027-01-01"], requested: "2026-07-28" },
            },
          }
        : callRefusals++ === 0
          ? {
              error: {
                code: -32022,
                message: "Unsupported",
                data: { supported: ["2026-07-28"], requested: "2026-07-28" },
              },
            }
          : TEXT("ok");
    }
    return undefined;
  });
  assert.is(peer.requests("server/discover").length, 2);
  const r = await client.request("tools/call", { name: "t" });
  assert.equal(r.content, [{ type: "text", text: "ok" }]);
  assert.is(peer.requests("tools/call").length, 2);
  assert.instance(await client.request("tools/call", { name: "never" }).catch((e: unknown) => e), ProtocolVersionError);
  await client.close();
});

test("cache: fresh results reused for ttlMs, keyed by params; MRTR and retries never cached; list_changed invalidates", async () => {
  const { peer, client } = await connect((m) => {
    if (m.method === "tools/list")
      return {
        resultType: "complete",
        tools: [{ name: `t${peer.seen.length}`, inputSchema: { type: "object" } }],
        ttlMs: 60_000,
        cacheScope: "public",
        ...(m.params!.cursor ? {} : { nextCursor: "p2" }),
      };
    if (m.method === "resources/read") {
      return m.params!.requestState === undefined && m.params!.uri === "mrtr://x"
        ? { resultType: "input_required", requestState: "s" }
        : { resultType: "complete", contents: [], ttlMs: 60_000, cacheScope: "private" };
    }
    if (m.method === "prompts/list") return { resultType: "complete", prompts: [], ttlMs: 0, cacheScope: "public" };
    if (m.method === "subscriptions/listen") {
      peer.send({
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: { notifications: { toolsListChanged: true }, _meta: { [MetaKey.subscriptionId]: m.id! } },
      });
      return undefined;
    }
    return undefined;
  });
  const a = await client.request("tools/list", {});
  const b = await client.request("tools/list", {});
  assert.is(a, b, "second call served from the cache");
  await client.request("tools/list", { cursor: "p2" });
  assert.is(peer.requests("tools/list").length, 2, "another cursor is another key");
  await client.request("prompts/list", {});
  await client.request("prompts/list", {});
  assert.is(peer.requests("prompts/list").length, 2, "ttlMs 0 is stale at once");
  await client.request("resources/read", { uri: "mrtr://x" });
  await client.request("resources/read", { uri: "mrtr://x" });
  assert.is(peer.requests("resources/read").length, 4, "a result reached through input rounds is not cached");
  const sub = client.listen({ toolsListChanged: true });
  await sub.acknowledged;
  peer.send({
    jsonrpc: "2.0",
    method: "notifications/tools/list_changed",
    params: { _meta: { [MetaKey.subscriptionId]: sub.id } },
  });
  await tick(5);
  await client.request("tools/list", {});
  assert.is(peer.requests("tools/list").length, 3, "list_changed dropped the cached tools");
  await sub.close();
  await client.close();
});

test("listen: acknowledgement, demultiplexing by subscriptionId, close = notifications/cancelled, server-side end", async () => {
  const { peer, client, errors } = await connect((m) => {
    if (m.method !== "subscriptions/listen") return undefined;
    const f = m.params!.notifications;
    const granted = f.resourceSubscriptions
      ? { resourceSubscriptions: f.resourceSubscriptions }
      : f.promptsListChanged
        ? { promptsListChanged: true, toolsListChanged: true }
        : { toolsListChanged: true };
    peer.send({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: granted, _meta: { [MetaKey.subscriptionId]: m.id! } },
    });
    return undefined;
  });
  const toolsSeen: string[] = [];
  const resSeen: string[] = [];
  const tools = client.listen({ toolsListChanged: true }, { onnotification: (method) => toolsSeen.push(method) });
  const res = client.listen(
    { resourceSubscriptions: ["file:///a"] },
    { onnotification: (method, p) => resSeen.push(`${method} ${p?.uri}`) },
  );
  assert.equal(await tools.acknowledged, { toolsListChanged: true });
  assert.equal(await res.acknowledged, { resourceSubscriptions: ["file:///a"] });
  assert.is.not(tools.id, res.id);
  peer.send({
    jsonrpc: "2.0",
    method: "notifications/resources/updated",
    params: { uri: "file:///a", _meta: { [MetaKey.subscriptionId]: res.id } },
  });
  peer.send({
    jsonrpc: "2.0",
    method: "notifications/tools/list_changed",
    params: { _meta: { [MetaKey.subscriptionId]: tools.id } },
  });
  peer.send({
    jsonrpc: "2.0",
    method: "notifications/tools/list_changed",
    params: { _meta: { [MetaKey.subscriptionId]: 9999 } },
  });
  await tick(5);
  assert.equal(toolsSeen, ["notifications/tools/list_changed"]);
  assert.equal(resSeen, ["notifications/resources/updated file:///a"]);
  assert.ok(errors.some((e) => /unknown subscription 9999/.test(e.message)));

  await tools.close();
  assert.not.ok(tools.active);
  const cancel = peer.seen.find((m) => m.method === "notifications/cancelled");
  assert.equal(cancel?.params, { requestId: tools.id, reason: "subscription closed" });
  // The server ends the other subscription gracefully with the listen response.
  peer.send({
    jsonrpc: "2.0",
    id: res.id,
    result: { resultType: "complete", _meta: { [MetaKey.subscriptionId]: res.id } },
  });
  await res.ended;
  assert.is(client.subscriptionCount, 0);

  // An acknowledgement that grants more than asked is refused and the subscription cancelled.
  const greedy = client.listen({ promptsListChanged: true });
  const e = await greedy.acknowledged.catch((x: unknown) => x);
  assert.instance(e, SubscriptionAckError);
  await greedy.ended;
  await client.close();
});

test("tools view: a tool with an invalid x-mcp-header annotation is dropped with a warning; valid ones are kept", async () => {
  const { client, errors } = await connect((m) =>
    m.method === "tools/list"
      ? {
          resultType: "complete",
          ttlMs: 0,
          cacheScope: "public",
          tools: [
            {
              name: "ok",
              inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
            },
            {
              name: "number",
              inputSchema: { type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } },
            },
            {
              name: "dup",
              inputSchema: {
                type: "object",
                properties: { a: { type: "string", "x-mcp-header": "X" }, b: { type: "string", "x-mcp-header": "x" } },
              },
            },
            { name: "plain", inputSchema: { type: "object" } },
          ],
        }
      : undefined,
  );
  const r = await client.request("tools/list", {});
  assert.equal(
    (r.tools as { name: string }[]).map((t) => t.name),
    ["ok", "plain"],
  );
  assert.equal(client.toolHeaders("ok"), [{ header: "Region", path: ["region"], type: "string" }]);
  assert.is(client.toolHeaders("plain"), undefined);
  assert.equal(errors.filter((e) => /left out of the tools list/.test(e.message)).length, 2);
  await client.close();
});

test("connectModernClient needs a modern binding; a discover result without supportedVersions is invalid", async () => {
  const peer = await scriptedPeer(() => undefined);
  await connectModernClient({ transport: peer.transport, bindings: dual.slice(1), clientInfo }).then(
    () => assert.unreachable(),
    (e: unknown) => assert.match((e as Error).message, /no 2026-era protocol binding/),
  );
  const bad = await scriptedPeer((m) =>
    m.method === "server/discover" ? { resultType: "complete", capabilities: {} } : undefined,
  );
  const e = await connectModernClient({
    transport: bad.transport,
    bindings: [modern],
    clientInfo,
    timeout: 1000,
  }).catch((x: unknown) => x);
  assert.instance(e, InvalidResultError);
});

test("requests without their own _meta share one frozen _meta until the log level changes", async () => {
  const { peer, client } = await connect((m) => (m.method === "tools/call" ? TEXT("ok") : undefined), {
    logLevel: "info",
  });
  const params = { name: "t", arguments: { a: 1 } };
  await client.request("tools/call", params);
  await client.request("tools/call", { name: "t" });
  const [first, second] = peer.requests("tools/call");
  assert.not.ok("_meta" in params, "the caller's params are not written to");
  assert.is(first!.params!._meta, second!.params!._meta, "one object (the memory transport passes it by reference)");
  assert.ok(Object.isFrozen(first!.params!._meta), "a receiver in this process cannot change the next request's");
  assert.is(first!.params!._meta[MetaKey.logLevel], "info");
  client.setLoggingLevel("error");
  await client.request("tools/call", { name: "t" });
  const third = peer.requests("tools/call")[2]!;
  assert.is(third.params!._meta[MetaKey.logLevel], "error");
  assert.is(first!.params!._meta[MetaKey.logLevel], "info", "the earlier object is unchanged");
  await client.close();
});

test.run();
