import * as http from "node:http";
import type { JSONRPCMessage, Transport } from "@mcpgen/runtime";

/** Rejects after `ms` so no test can hang. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

/** Polls `pred` every 5 ms, at most `ms`. */
export async function waitFor(pred: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const agent = new http.Agent({ keepAlive: false });

/** One raw HTTP request, whole body read (not for open-ended SSE streams). */
export function raw(
  url: URL | string,
  o: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return within(
    new Promise<RawResponse>((resolve, reject) => {
      const req = http.request(url, { method: o.method ?? "GET", headers: o.headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(o.body);
    }),
    5000,
    `${o.method ?? "GET"} ${String(url)}`,
  );
}

/** Parsed SSE events of a complete SSE body. */
export function sseEvents(body: string): { id?: string; event?: string; data: string; retry?: number }[] {
  const out: { id?: string; event?: string; data: string; retry?: number }[] = [];
  for (const block of body.split("\n\n")) {
    if (block.trim() === "") continue;
    const ev: { id?: string; event?: string; data: string; retry?: number } = { data: "" };
    const data: string[] = [];
    let comment = true;
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) continue;
      comment = false;
      const i = line.indexOf(":");
      const field = i === -1 ? line : line.slice(0, i);
      let value = i === -1 ? "" : line.slice(i + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "data") data.push(value);
      else if (field === "id") ev.id = value;
      else if (field === "event") ev.event = value;
      else if (field === "retry") ev.retry = Number(value);
    }
    if (comment) continue;
    ev.data = data.join("\n");
    out.push(ev);
  }
  return out;
}

/** An open SSE response read incrementally. */
export class OpenStream {
  text = "";
  ended = false;
  status = 0;
  headers: http.IncomingHttpHeaders = {};
  private req: http.ClientRequest | undefined;

  /** Resolves once response headers arrive, or right after sending when `waitHeaders` is false. */
  static open(
    url: URL | string,
    o: { method?: string; headers?: Record<string, string>; body?: string; waitHeaders?: boolean },
  ): Promise<OpenStream> {
    const s = new OpenStream();
    return within(
      new Promise<OpenStream>((resolve, reject) => {
        const req = http.request(url, { method: o.method ?? "GET", headers: o.headers, agent }, (res) => {
          s.status = res.statusCode ?? 0;
          s.headers = res.headers;
          res.setEncoding("utf8");
          res.on("data", (c: string) => (s.text += c));
          res.on("end", () => (s.ended = true));
          res.on("close", () => (s.ended = true));
          res.on("error", () => (s.ended = true));
          resolve(s);
        });
        s.req = req;
        req.on("error", reject);
        req.end(o.body);
        if (o.waitHeaders === false) resolve(s);
      }),
      5000,
      "open stream",
    );
  }

  events(): ReturnType<typeof sseEvents> {
    return sseEvents(this.text.slice(0, this.text.lastIndexOf("\n\n") + 2));
  }

  /** JSON-RPC messages in the events so far. */
  messages(): JSONRPCMessage[] {
    return this.events()
      .filter((e) => e.data !== "")
      .map((e) => JSON.parse(e.data) as JSONRPCMessage);
  }

  close(): void {
    this.req?.destroy();
  }
}

export interface EchoLog {
  received: JSONRPCMessage[];
  transports: Transport[];
  closed: number;
}

/**
 * A stand-in for the session layer: answers requests on the transport it is given.
 * Methods: "echo" → result {params}; "chatty" → a related notification, then the result;
 * "ask" → a related server→client request first, then the result; "hold" → answered only when
 * the test calls `release`; notifications are recorded.
 */
export function echoSession(log: EchoLog, held?: Map<string | number, () => void>) {
  return (t: Transport): void => {
    log.transports.push(t);
    t.onclose = () => log.closed++;
    t.onmessage = (message) => {
      for (const m of Array.isArray(message) ? message : [message]) {
        log.received.push(m);
        if (!("method" in m) || !("id" in m)) continue;
        const id = m.id;
        const reply = (): void =>
          void t.send({ jsonrpc: "2.0", id, result: { method: m.method, params: m.params ?? {} } }).catch(() => {});
        if (m.method === "chatty") {
          void t.send(
            { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } },
            { relatedRequestId: id },
          );
          reply();
        } else if (m.method === "ask") {
          void t.send({ jsonrpc: "2.0", id: "s1", method: "roots/list" }, { relatedRequestId: id });
          reply();
        } else if (m.method === "hold") {
          held?.set(id, reply);
        } else reply();
      }
    };
  };
}
