// A client's answer to a request the server sent (here sampling/createMessage, asked by the
// "everything" example's test_sampling tool) that is over the size or nesting limit must fail that
// request at once, on every transport the server side speaks: stdio NDJSON (the example as a child
// process), a Streamable HTTP session and the 2024-11-05 HTTP+SSE transport (real HTTP on
// 127.0.0.1). The tool then answers its error well before the 60 s request timeout, and the
// connection goes on serving.
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import {
  createLegacySseHandler,
  createStreamableHttpServer,
  type LegacySseOptions,
  type StreamableHttpServerOptions,
} from "@mcpgen/runtime/http";
import { createResourceServer, InvalidTokenError } from "@mcpgen/runtime/auth";
import { createServer } from "../../examples/everything/src/server.js";
import { mainJs, waitExit } from "../examples/helpers/everything-process.js";
import { OpenStream, raw, waitFor } from "../runtime/transports/helpers.js";

/** The request timeout the server applies to sampling/createMessage (the session default). */
const REQUEST_TIMEOUT_MS = 60_000;
/** "Promptly": far below that timeout, with room for a slow, shared machine. */
const PROMPT_MS = 10_000;
const MAX_BYTES = 4 * 1024 * 1024;

/** A sampling answer of more than 5 MiB; its id last when `idLast` (the id is read from the raw text either way). */
function bigAnswer(id: unknown, idLast = false): string {
  const result = `{"role":"assistant","model":"m","content":{"type":"text","text":"${"x".repeat(5 * 1024 * 1024)}"}}`;
  return idLast
    ? `{"jsonrpc":"2.0","result":${result},"id":${JSON.stringify(id)}}`
    : `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`;
}

/** A sampling answer nested 5,000 deep (well-formed JSON, small). */
function deepAnswer(id: unknown): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"role":"assistant","model":"m","content":{"type":"text","text":"x"},"pad":${"[".repeat(5000)}${"]".repeat(5000)}}}`;
}

const okAnswer = (id: unknown) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    result: { role: "assistant", model: "m", content: { type: "text", text: "fine" } },
  });
const sampling = (m: any) => m.method === "sampling/createMessage" && "id" in m;
const callSampling = (id: unknown) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "test_sampling", arguments: { prompt: "hi" } },
  });

/** The tool's answer: a tool error naming why the client's answer could not be read. */
function assertUnreadable(reply: any, why: RegExp): void {
  assert.ok(reply.result, JSON.stringify(reply).slice(0, 300));
  assert.is(reply.result.isError, true);
  const text = reply.result.content[0].text as string;
  assert.match(text, /The response to sampling\/createMessage could not be read/);
  assert.match(text, why);
}

// ---- stdio ---------------------------------------------------------------------------------------

function stdioChild() {
  const child = spawn(process.execPath, [mainJs, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  child.stderr.resume();
  const inbox: any[] = [];
  createInterface({ input: child.stdout }).on("line", (l) => inbox.push(JSON.parse(l)));
  const next = async (pred: (m: any) => boolean, ms: number, what: string): Promise<any> => {
    const until = Date.now() + ms;
    for (;;) {
      const i = inbox.findIndex(pred);
      if (i !== -1) return inbox.splice(i, 1)[0];
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before ${what}`);
      if (Date.now() > until)
        throw new Error(`no ${what} within ${ms} ms; have ${JSON.stringify(inbox).slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { child, inbox, next, send: (line: string) => void child.stdin.write(line + "\n") };
}

test("stdio: a 5 MiB sampling answer fails the tool's request at once (id before or after the payload); the session goes on", async () => {
  const c = stdioChild();
  try {
    c.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: "init",
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: { sampling: {} },
          clientInfo: { name: "t", version: "1" },
        },
      }),
    );
    await c.next((m) => m.id === "init", 5000, "initialize reply");
    c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`);
    for (const idLast of [false, true]) {
      const call = `big-${idLast}`;
      c.send(callSampling(call));
      const ask = await c.next(sampling, 5000, "sampling request");
      const started = Date.now();
      c.send(bigAnswer(ask.id, idLast));
      assertUnreadable(
        await c.next((m) => m.id === call, PROMPT_MS, "tool reply"),
        new RegExp(`exceeds ${MAX_BYTES} bytes`),
      );
      assert.ok(Date.now() - started < REQUEST_TIMEOUT_MS / 2);
    }
    // The same tool with a normal answer still works: nothing was left waiting.
    c.send(callSampling("ok"));
    const ask = await c.next(sampling, 5000, "sampling request");
    c.send(okAnswer(ask.id));
    assert.is((await c.next((m) => m.id === "ok", 5000, "tool reply")).result.content[0].text, "LLM response: fine");
    assert.equal(
      c.inbox.filter((m) => m.id === null),
      [],
      "the client's answer is not answered back",
    );
  } finally {
    c.child.stdin.end();
    await waitExit(c.child, 3000);
  }
});

test("stdio: a sampling answer nested 5,000 deep fails the tool's request at once", async () => {
  const c = stdioChild();
  try {
    c.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: "init",
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: { sampling: {} },
          clientInfo: { name: "t", version: "1" },
        },
      }),
    );
    await c.next((m) => m.id === "init", 5000, "initialize reply");
    c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`);
    c.send(callSampling("deep"));
    const ask = await c.next(sampling, 5000, "sampling request");
    c.send(deepAnswer(ask.id));
    assertUnreadable(await c.next((m) => m.id === "deep", PROMPT_MS, "tool reply"), /nests deeper than 128 levels/);
    c.send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`);
    assert.equal((await c.next((m) => m.id === "p", 5000, "ping reply")).result, {});
  } finally {
    c.child.stdin.end();
    await waitExit(c.child, 3000);
  }
});

// ---- Streamable HTTP ---------------------------------------------------------------------------------

const cleanup: (() => Promise<void> | void)[] = [];
test.after.each(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

const ACCEPT = "application/json, text/event-stream";

async function httpSession(o: Partial<StreamableHttpServerOptions> = {}, credentials: Record<string, string> = {}) {
  const mcp = createServer({ onerror: () => {} });
  const refusals: Error[] = [];
  const server = createStreamableHttpServer({
    onsession: (t) => void mcp.connect(t),
    keepAliveMs: 0,
    onerror: (e) => refusals.push(e),
    ...o,
  });
  cleanup.push(() => server.close());
  const url = await server.listen();
  const post = (body: string, headers: Record<string, string> = credentials) =>
    raw(url, { method: "POST", body, headers: { "content-type": "application/json", accept: ACCEPT, ...headers } });
  const init = await post(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { sampling: {} },
        clientInfo: { name: "t", version: "1" },
      },
    }),
  );
  assert.is(init.status, 200, init.body);
  const h = {
    ...credentials,
    "mcp-session-id": init.headers["mcp-session-id"] as string,
    "mcp-protocol-version": "2025-11-25",
  };
  assert.is((await post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, h)).status, 202);
  /** A tools/call whose reply streams as SSE (the sampling request comes first on it). */
  const call = async (id: number) => {
    const s = await OpenStream.open(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: ACCEPT, ...h },
      body: callSampling(id),
    });
    cleanup.push(() => s.close());
    await waitFor(() => s.messages().some(sampling), 5000, "sampling request on the POST stream");
    return { stream: s, ask: s.messages().find(sampling) as any };
  };
  const replyOn = async (s: OpenStream, id: number) => {
    await waitFor(
      () => s.messages().some((m) => "id" in m && m.id === id && !("method" in m)),
      PROMPT_MS,
      `reply to ${id}`,
    );
    return s.messages().find((m) => "id" in m && m.id === id && !("method" in m));
  };
  return { server, post, h, call, replyOn, refusals };
}

test("Streamable HTTP: a 5 MiB sampling answer is 413 and fails the tool's request at once", async () => {
  const { post, h, call, replyOn, refusals } = await httpSession();
  for (const [n, idLast] of [
    [10, false],
    [11, true],
  ] as const) {
    const { stream, ask } = await call(n);
    // Posted without the session it belongs to, it is refused and settles nothing.
    assert.is((await post(bigAnswer(ask.id), { ...h, "mcp-session-id": "not-a-session" })).status, 413);
    await new Promise((r) => setTimeout(r, 50));
    assert.not.ok(
      stream.messages().some((m) => "id" in m && m.id === n && !("method" in m)),
      "the tool still waits for its answer",
    );
    const started = Date.now();
    const r = await post(bigAnswer(ask.id, idLast), h);
    assert.is(r.status, 413);
    assertUnreadable(await replyOn(stream, n), new RegExp(`exceeds ${MAX_BYTES} bytes`));
    assert.ok(Date.now() - started < REQUEST_TIMEOUT_MS / 2);
  }
  assert.ok(refusals.filter((e) => /\(413\)/.test(e.message)).length >= 4, "each 413 is logged");
  assert.equal(JSON.parse((await post(`{"jsonrpc":"2.0","id":"p","method":"ping"}`, h)).body).result, {});
});

test("Streamable HTTP: a sampling answer nested 5,000 deep is 400 and fails the tool's request at once", async () => {
  const { post, h, call, replyOn } = await httpSession();
  const { stream, ask } = await call(20);
  const r = await post(deepAnswer(ask.id), h);
  assert.is(r.status, 400);
  assertUnreadable(await replyOn(stream, 20), /nests deeper than 128 levels/);
  // A normal answer on the same session still completes the next call.
  const next = await call(21);
  assert.is((await post(okAnswer(next.ask.id), h)).status, 202);
  assert.is(((await replyOn(next.stream, 21)) as any).result.content[0].text, "LLM response: fine");
});

/** A guard that knows two principals, alice and bob, by their tokens. */
function twoPrincipals(resource: string) {
  const verifier = {
    async verify(token: string) {
      if (token !== "alice-token" && token !== "bob-token") throw new InvalidTokenError("unknown token");
      return { clientId: "c", subject: token.slice(0, -"-token".length), scopes: [] };
    },
  };
  return createResourceServer({ resource, authorizationServers: ["https://issuer.example"], verifier });
}

test("Streamable HTTP behind a resource server: the oversized answer is admitted like any POST first (401 without a token) and reaches only its principal's session", async () => {
  const auth = twoPrincipals("http://127.0.0.1/mcp");
  const { post, h, call, replyOn } = await httpSession({ auth }, { authorization: "Bearer alice-token" });
  const { stream, ask } = await call(40);
  const anonymous = { "mcp-session-id": h["mcp-session-id"], "mcp-protocol-version": h["mcp-protocol-version"] };
  assert.is((await post(bigAnswer(ask.id), anonymous)).status, 401);
  assert.is((await post(deepAnswer(ask.id), anonymous)).status, 401);
  // Another principal naming the session: its POST is refused as for no session, and settles nothing.
  assert.is((await post(bigAnswer(ask.id), { ...anonymous, authorization: "Bearer bob-token" })).status, 413);
  assert.is((await post(deepAnswer(ask.id), { ...anonymous, authorization: "Bearer bob-token" })).status, 400);
  await new Promise((r) => setTimeout(r, 50));
  assert.not.ok(
    stream.messages().some((m) => "id" in m && m.id === 40 && !("method" in m)),
    "the tool still waits for its answer",
  );
  assert.is((await post(bigAnswer(ask.id), h)).status, 413);
  assertUnreadable(await replyOn(stream, 40), new RegExp(`exceeds ${MAX_BYTES} bytes`));
});

// ---- 2024-11-05 HTTP+SSE ---------------------------------------------------------------------------

async function legacySseSession(o: Partial<LegacySseOptions> = {}, credentials: Record<string, string> = {}) {
  const mcp = createServer({ onerror: () => {} });
  const handler = createLegacySseHandler({ onsession: (t) => void mcp.connect(t), keepAliveMs: 0, ...o });
  const server = http.createServer((req, res) => void handler.handle(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanup.push(async () => {
    await handler.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  const sse = new URL("/sse", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const s = await OpenStream.open(sse, { headers: { accept: "text/event-stream", ...credentials } });
  cleanup.push(() => s.close());
  await waitFor(() => s.events().length >= 1, 2000, "endpoint event");
  const endpoint = new URL(s.events()[0]!.data, sse);
  const post = (body: string, headers: Record<string, string> = credentials) =>
    raw(endpoint, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
  const messages = () =>
    s
      .events()
      .filter((e) => e.event === "message")
      .map((e) => JSON.parse(e.data));
  const waitMsg = async (pred: (m: any) => boolean, ms: number, what: string) => {
    await waitFor(() => messages().some(pred), ms, what);
    return messages().find(pred);
  };
  assert.is(
    (
      await post(
        JSON.stringify({
          jsonrpc: "2.0",
          id: "init",
          method: "initialize",
          params: {
            protocolVersion: "2024-11-05",
            capabilities: { sampling: {} },
            clientInfo: { name: "t", version: "1" },
          },
        }),
      )
    ).status,
    202,
  );
  await waitMsg((m) => m.id === "init", 5000, "initialize reply");
  assert.is((await post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)).status, 202);
  return { post, waitMsg, messages };
}

test("HTTP+SSE (2024-11-05): a 5 MiB or 5,000-deep sampling answer is refused and fails the tool's request at once", async () => {
  const { post, waitMsg } = await legacySseSession();
  const asked = new Set<unknown>();
  for (const [call, answer, status, why] of [
    ["big", bigAnswer, 413, new RegExp(`exceeds ${MAX_BYTES} bytes`)],
    ["deep", deepAnswer, 400, /nests deeper than 128 levels/],
  ] as const) {
    assert.is((await post(callSampling(call))).status, 202);
    const ask = await waitMsg((m) => sampling(m) && !asked.has(m.id), 5000, "sampling request");
    asked.add(ask.id);
    const r = await post(answer(ask.id));
    assert.is(r.status, status);
    assertUnreadable(await waitMsg((m) => m.id === call, PROMPT_MS, `reply to ${call}`), why);
  }
});

test("HTTP+SSE behind a resource server: the oversized answer reaches only its principal's session, after admission", async () => {
  const auth = twoPrincipals("http://127.0.0.1/sse");
  const { post, waitMsg, messages } = await legacySseSession({ auth }, { authorization: "Bearer alice-token" });
  assert.is((await post(callSampling("guarded"))).status, 202);
  const ask = await waitMsg(sampling, 5000, "sampling request");
  assert.is((await post(bigAnswer(ask.id), {})).status, 401);
  assert.is((await post(bigAnswer(ask.id), { authorization: "Bearer bob-token" })).status, 413);
  assert.is((await post(deepAnswer(ask.id), { authorization: "Bearer bob-token" })).status, 400);
  await new Promise((r) => setTimeout(r, 50));
  assert.not.ok(
    messages().some((m) => m.id === "guarded"),
    "the tool still waits for its answer",
  );
  assert.is((await post(deepAnswer(ask.id))).status, 400);
  assertUnreadable(
    await waitMsg((m) => m.id === "guarded", PROMPT_MS, "reply to guarded"),
    /nests deeper than 128 levels/,
  );
});

test.run();
