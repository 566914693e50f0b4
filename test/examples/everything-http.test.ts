// The "everything" example's HTTP behaviour on the raw wire: SSE polling (priming event, stream
// closed before the result, resumption with Last-Event-ID), DNS-rebinding protection, sessions,
// clean shutdown on SIGTERM with streams open, the --stdio mode, and command-line errors.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { request } from "node:http";
import { spawn } from "node:child_process";
import { mainJs, startEverything, waitExit, type EverythingProcess } from "./helpers/everything-process.js";

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP exchange read to its end (bounded). */
function raw(
  url: URL,
  o: { method: string; headers?: Record<string, string>; body?: unknown; timeoutMs?: number },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const data = o.body === undefined ? undefined : JSON.stringify(o.body);
    const req = request(
      url,
      { method: o.method, headers: { ...(data ? { "content-type": "application/json" } : {}), ...o.headers } },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (d: string) => (body += d));
        res.on("end", () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode!, headers: res.headers, body });
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`${o.method} ${url.href}: no complete reply within ${o.timeoutMs ?? 5000} ms`));
    }, o.timeoutMs ?? 5000);
    req.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end(data);
  });
}

interface Event {
  id?: string;
  retry?: string;
  data: string;
}
function sseEvents(body: string): Event[] {
  const events: Event[] = [];
  for (const block of body.split(/\r?\n\r?\n/)) {
    if (block.trim() === "" || block.startsWith(":")) continue;
    const ev: Event = { data: "" };
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      const i = line.indexOf(":");
      const field = i === -1 ? line : line.slice(0, i);
      const value = i === -1 ? "" : line.slice(i + 1).replace(/^ /, "");
      if (field === "id") ev.id = value;
      else if (field === "retry") ev.retry = value;
      else if (field === "data") data.push(value);
    }
    ev.data = data.join("\n");
    events.push(ev);
  }
  return events;
}

const ACCEPT = "application/json, text/event-stream";
let server: EverythingProcess;

test.before(async () => {
  server = await startEverything();
});
test.after(async () => {
  if (server) await server.stop();
});

async function handshake(url: URL, version = "2025-11-25"): Promise<string> {
  const init = await raw(url, {
    method: "POST",
    headers: { accept: ACCEPT },
    body: {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    },
  });
  assert.is(init.status, 200, init.body);
  const sid = init.headers["mcp-session-id"] as string;
  assert.ok(/^[\x21-\x7e]+$/.test(sid), "visible-ASCII session id");
  const ack = await raw(url, {
    method: "POST",
    headers: { accept: ACCEPT, "mcp-session-id": sid, "mcp-protocol-version": version },
    body: { jsonrpc: "2.0", method: "notifications/initialized" },
  });
  assert.is(ack.status, 202);
  return sid;
}

for (const header of ["2025-11-25", "2025-03-26"]) {
  test(`SSE polling (MCP-Protocol-Version ${header}): primed, closed before the result, resumed with Last-Event-ID`, async () => {
    const sid = await handshake(server.url);
    const headers = {
      accept: "text/event-stream, application/json",
      "mcp-session-id": sid,
      "mcp-protocol-version": header,
    };
    const post = await raw(server.url, {
      method: "POST",
      headers,
      body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "test_reconnection", arguments: {} } },
    });
    assert.is(post.status, 200);
    assert.ok(String(post.headers["content-type"]).startsWith("text/event-stream"));
    const events = sseEvents(post.body);
    assert.ok(events[0]?.id, "the first event has an id");
    assert.is(events[0]!.data, "", "priming event has empty data");
    assert.ok(Number(events[0]!.retry) > 0, "retry is sent");
    assert.not.ok(post.body.includes('"result"'), "the result is not on the POST stream");

    const get = await raw(server.url, {
      method: "GET",
      headers: { ...headers, accept: "text/event-stream", "last-event-id": events.at(-1)!.id! },
    });
    assert.is(get.status, 200);
    const replies = sseEvents(get.body)
      .filter((e) => e.data !== "")
      .map((e) => JSON.parse(e.data));
    const result = replies.find((m) => m.id === 1);
    assert.ok(result?.result, `the result arrives on the resumed stream: ${get.body}`);
    assert.not.ok(result.result.isError);
    await raw(server.url, { method: "DELETE", headers: { "mcp-session-id": sid } });
  });
}

test("sessions: DELETE ends the session; its id then gets 404", async () => {
  const sid = await handshake(server.url);
  const del = await raw(server.url, {
    method: "DELETE",
    headers: { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" },
  });
  assert.is(del.status, 200);
  const after = await raw(server.url, {
    method: "POST",
    headers: { accept: ACCEPT, "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" },
    body: { jsonrpc: "2.0", id: 2, method: "tools/list" },
  });
  assert.is(after.status, 404);
});

test("three concurrent POSTs on one session are all answered", async () => {
  const sid = await handshake(server.url);
  const headers = {
    accept: "text/event-stream, application/json",
    "mcp-session-id": sid,
    "mcp-protocol-version": "2025-11-25",
  };
  const replies = await Promise.all(
    [1000, 1001, 1002].map((id) =>
      raw(server.url, { method: "POST", headers, body: { jsonrpc: "2.0", id, method: "tools/list" } }),
    ),
  );
  assert.equal(
    replies.map((r) => r.status),
    [200, 200, 200],
  );
  for (const [i, r] of replies.entries()) assert.ok(r.body.includes(`"id":${1000 + i}`), r.body.slice(0, 200));
});

test("DNS rebinding: a foreign Host/Origin is refused with 4xx, the server's own is accepted", async () => {
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "dns", version: "1" } },
  };
  const evil = await raw(server.url, {
    method: "POST",
    headers: { accept: ACCEPT, host: "evil.example.com", origin: "http://evil.example.com" },
    body: init,
  });
  assert.ok(evil.status >= 400 && evil.status < 500, `got ${evil.status}`);
  const own = `localhost:${server.url.port}`;
  const ok = await raw(server.url, {
    method: "POST",
    headers: { accept: ACCEPT, host: own, origin: `http://${own}` },
    body: init,
  });
  assert.is(ok.status, 200);
});

test("SIGTERM with an open GET stream and a session: exit code 0", async () => {
  const p = await startEverything();
  try {
    const sid = await handshake(p.url);
    const open = new Promise<void>((resolve) => {
      const req = request(
        p.url,
        {
          method: "GET",
          headers: { accept: "text/event-stream", "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" },
        },
        (res) => {
          assert.is(res.statusCode, 200);
          res.resume();
          resolve();
        },
      );
      req.on("error", () => {});
      req.end();
    });
    await open;
    assert.equal(await p.stop(5000), { code: 0, signal: null });
  } finally {
    p.child.kill("SIGKILL");
  }
});

test("--stdio: one connection on stdin/stdout; EOF on stdin exits 0", async () => {
  const child = spawn(process.execPath, [mainJs, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
  const lines = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "stdio", version: "1" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "test_simple_text" } },
  ];
  child.stdin.write(lines.map((l) => JSON.stringify(l) + "\n").join(""));
  for (let i = 0; i < 250 && !out.includes('"id":2'); i++) await new Promise((r) => setTimeout(r, 20));
  child.stdin.end();
  const exit = await waitExit(child, 5000);
  assert.equal(exit, { code: 0, signal: null });
  const replies = out
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.is(replies[0].result.protocolVersion, "2025-06-18");
  assert.is(replies[1].result.content[0].text, "This is a simple text response for testing.");
});

test("bad command line: exit 2 with a message naming the flag", async () => {
  const child = spawn(process.execPath, [mainJs, "--port", "http"], { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
  const exit = await waitExit(child, 5000);
  assert.is(exit.code, 2);
  assert.match(err, /--port/);
});

test.run();
