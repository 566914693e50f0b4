/**
 * A load generator that costs little per request, so a fast server is not measured against the
 * client's limits: `concurrency` keep-alive TCP connections, each with one POST in flight, written
 * as one prepared string (the request head is made once) and read by a minimal HTTP/1.1 response
 * parser (Content-Length or chunked). node:http's client with an Agent spends about as much CPU
 * per call as the servers measured here, which capped their calls/s on two cores.
 */
import { connect, type Socket } from "node:net";

export interface SocketLoadOptions {
  port: number;
  path: string;
  /** Request headers other than host and content-length. */
  headers: Readonly<Record<string, string>>;
  /** The body of call `n` (ASCII JSON). */
  body(n: number): string;
  /** Throws unless `body` is call `n`'s correct reply. */
  check(n: number, status: number, body: string): void;
  concurrency: number;
}

/** One parsed response off a connection's bytes; undefined while incomplete. */
function parseResponse(buf: Buffer): { status: number; body: string; used: number } | undefined {
  const headEnd = buf.indexOf("\r\n\r\n");
  if (headEnd === -1) return undefined;
  const head = buf.toString("latin1", 0, headEnd);
  const status = Number(head.slice(9, 12));
  const lower = head.toLowerCase();
  const cl = /\r\ncontent-length: *(\d+)/.exec(lower);
  let at = headEnd + 4;
  if (cl !== null) {
    const end = at + Number(cl[1]);
    if (buf.length < end) return undefined;
    return { status, body: buf.toString("utf8", at, end), used: end };
  }
  if (!/\r\ntransfer-encoding: *chunked/.test(lower)) throw new Error(`response without a length: ${head}`);
  const parts: Buffer[] = [];
  for (;;) {
    const lineEnd = buf.indexOf("\r\n", at);
    if (lineEnd === -1) return undefined;
    const size = parseInt(buf.toString("latin1", at, lineEnd), 16);
    const start = lineEnd + 2;
    if (buf.length < start + size + 2) return undefined;
    if (size === 0) return { status, body: Buffer.concat(parts).toString("utf8"), used: start + 2 };
    parts.push(buf.subarray(start, start + size));
    at = start + size + 2;
  }
}

/**
 * Runs calls until `ms` have passed (each connection finishes its call in flight), or until `calls`
 * have been sent when given; resolves to the number of calls answered. Connections are opened
 * before the clock starts and closed after.
 */
export async function socketLoad(o: SocketLoadOptions, ms: number, firstId = 1, calls = Infinity): Promise<number> {
  const head =
    `POST ${o.path} HTTP/1.1\r\nhost: 127.0.0.1:${o.port}\r\n` +
    Object.entries(o.headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("");
  const sockets = await Promise.all(
    Array.from(
      { length: o.concurrency },
      () =>
        new Promise<Socket>((resolve, reject) => {
          const s = connect({ host: "127.0.0.1", port: o.port, noDelay: true }, () => resolve(s));
          s.once("error", reject);
        }),
    ),
  );
  let next = firstId;
  let done = 0;
  const until = Date.now() + ms;
  try {
    await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<void>((resolve, reject) => {
            let buf: Buffer = Buffer.alloc(0);
            let n = 0;
            const send = (): void => {
              n = next++;
              const body = o.body(n);
              socket.write(`${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
            };
            socket.on("error", reject);
            socket.on("close", () => reject(new Error("the server closed a connection")));
            socket.on("data", (chunk: Buffer) => {
              buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
              let r: ReturnType<typeof parseResponse>;
              try {
                r = parseResponse(buf);
                if (r === undefined) return;
                o.check(n, r.status, r.body);
              } catch (e) {
                reject(e);
                return;
              }
              buf = r.used === buf.length ? Buffer.alloc(0) : buf.subarray(r.used);
              done++;
              if (Date.now() < until && next - firstId < calls) send();
              else resolve();
            });
            if (next - firstId < calls) send();
            else resolve();
          }),
      ),
    );
  } finally {
    for (const s of sockets) {
      s.removeAllListeners("close");
      s.destroy();
    }
  }
  return done;
}
