// A POST body is read whole at once when node has it buffered with its headers (no listeners,
// promise or timer), and as it comes otherwise: either way the same message, and the same refusals.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { connect } from "node:net";
import { createStreamableHttpServer, type StreamableHttpServer } from "@mcpgen/runtime/http";
import { echoSession, type EchoLog } from "./helpers.js";

const servers: StreamableHttpServer[] = [];
test.after.each(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function start(o: { maxBodyBytes?: number; maxBufferedBodyBytes?: number } = {}): Promise<URL> {
  const log: EchoLog = { received: [], transports: [], closed: 0 };
  const server = createStreamableHttpServer({ onsession: echoSession(log), keepAliveMs: 0, stateless: true, ...o });
  servers.push(server);
  return server.listen();
}

const body = (text: string) => JSON.stringify({ jsonrpc: "2.0", id: 7, method: "echo", params: { text } });

/** Sends `parts` on one connection, `gapMs` apart, and reads the response to its end (bounded). */
function send(url: URL, parts: string[], gapMs: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("no response within 5 s"));
    }, 5000);
    let got = "";
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => (got += d));
    socket.on("error", reject);
    socket.on("close", () => {
      clearTimeout(timer);
      const [head = "", ...rest] = got.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), body: rest.join("\r\n\r\n") });
    });
    let i = 0;
    const next = (): void => {
      socket.write(parts[i++]!);
      if (i < parts.length) setTimeout(next, gapMs);
    };
    socket.once("connect", next);
  });
}

function request(url: URL, payload: string, framing: "length" | "chunked" = "length"): string {
  return (
    `POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\n` +
    `accept: application/json, text/event-stream\r\nconnection: close\r\n` +
    (framing === "length"
      ? `content-length: ${Buffer.byteLength(payload)}\r\n\r\n`
      : `transfer-encoding: chunked\r\n\r\n`)
  );
}

const echoed = (r: { status: number; body: string }, text: string) => {
  assert.is(r.status, 200);
  assert.ok(r.body.includes(JSON.stringify({ text })), r.body);
};

test("a body that comes with its headers, after them, split, or chunked: the same message", async () => {
  const url = await start();
  const text = "héllo ✓ " + "x".repeat(200);
  const p = body(text);
  echoed(await send(url, [request(url, p) + p], 0), text);
  echoed(await send(url, [request(url, p), p], 30), text);
  const cut = Math.floor(p.length / 2);
  echoed(await send(url, [request(url, p) + p.slice(0, cut), p.slice(cut)], 30), text);
  const chunk = `${Buffer.byteLength(p).toString(16)}\r\n${p}\r\n0\r\n\r\n`;
  echoed(await send(url, [request(url, p, "chunked") + chunk], 0), text);
});

test("a whole body over maxBodyBytes is 413 and one over maxBufferedBodyBytes 503, however it came", async () => {
  const p = body("y".repeat(2000));
  const small = await start({ maxBodyBytes: 1000 });
  assert.is((await send(small, [request(small, p) + p], 0)).status, 413);
  const tight = await start({ maxBufferedBodyBytes: 1000 });
  assert.is((await send(tight, [request(tight, p) + p], 0)).status, 503);
  assert.is((await send(tight, [request(tight, p), p], 30)).status, 503);
  echoed(await send(tight, [request(tight, body("z")) + body("z")], 0), "z");
});

test.run();
