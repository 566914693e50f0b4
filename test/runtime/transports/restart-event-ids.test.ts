// A client keeps its Last-Event-ID across a server restart. With the endpoint's own in-memory
// event store the new process numbers sessions, streams and events from scratch, so its ids must
// still differ from the old process's: a stale id that named a stream of the client's new session
// would replay that stream's events and take its live connection over.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { raw, sseEvents } from "./helpers.js";

const serverScript = fileURLToPath(new URL("../../../../test/fixtures/mini-mcp-http.mjs", import.meta.url));
const children = new Set<ChildProcess>();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test.after(() => {
  for (const c of children) c.kill();
});

async function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [serverScript], { stdio: ["ignore", "pipe", "inherit"] });
  children.add(child);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the server printed no URL within 10 s")), 10_000);
    createInterface({ input: child.stdout! }).once("line", (line) => {
      clearTimeout(timer);
      resolve(line.replace("localhost", "127.0.0.1"));
    });
    child.once("exit", (code) => reject(new Error(`the server exited (${code})`)));
  });
  return { child, url };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once("exit", r));
  child.kill();
  await exited;
  children.delete(child);
}

/**
 * A session, then the fixture's `test_reconnection` tool: the server closes the call's stream at
 * 50 ms (an SSE reply holding only its priming event) and stores the answer at 300 ms. Returns the
 * session's headers and the priming event's id.
 */
async function pollingCall(url: string): Promise<{ headers: Record<string, string>; eventId: string }> {
  const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const init = await raw(url, {
    method: "POST",
    headers: json,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
  const headers = {
    "mcp-session-id": String(init.headers["mcp-session-id"]),
    "mcp-protocol-version": "2025-11-25",
  };
  const call = await raw(url, {
    method: "POST",
    headers: { ...json, ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "test_reconnection" } }),
  });
  const eventId = sseEvents(call.body)[0]?.id;
  assert.type(eventId, "string", `a priming event in ${JSON.stringify(call.body)}`);
  return { headers, eventId: eventId! };
}

test("a Last-Event-ID from before a restart names no stream of the new process (404); the new one's own id resumes", async () => {
  const first = await startServer();
  const stale = (await pollingCall(first.url)).eventId;
  await stop(first.child);

  const second = await startServer();
  const { headers, eventId } = await pollingCall(second.url);
  // The same steps in a fresh process: the numbers alike, the ids not.
  assert.is.not(eventId, stale);
  await sleep(400);
  const resumeFrom = (id: string) =>
    raw(second.url, { headers: { accept: "text/event-stream", "last-event-id": id, ...headers } });
  assert.is((await resumeFrom(stale)).status, 404);
  const own = await resumeFrom(eventId);
  assert.is(own.status, 200);
  assert.equal(
    sseEvents(own.body).map((e) => JSON.parse(e.data).id),
    [2],
  );
  await stop(second.child);
});

test.run();
