/**
 * The two halves of one HTTP exchange as the Streamable HTTP protocol logic sees them, and all it
 * asks of a host. They are the few members of node's IncomingMessage and ServerResponse that logic
 * uses, so the node:http handler passes node's objects through untouched (no copy of a header, no
 * wrapper per request on the hot path), while the fetch handler (fetch.ts) implements them over a
 * web-standard Request and the ReadableStream of the Response it returns. Nothing here names a
 * Node type: what the fetch entry loads runs on workerd, Bun and Deno.
 */

/** Request headers by lower-case name, as node gives them (repeated ones joined or listed). */
export type HttpHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** What a guard or a token verifier reads of a request. */
export interface HttpRequestHead {
  readonly method?: string | undefined;
  /** The request target: path and query, as sent. */
  readonly url?: string | undefined;
  readonly headers: HttpHeaders;
}

/**
 * A request whose body is still to be read: its chunks arrive as events (`data`, then `end`;
 * `error` or `close` cut it short), subscribed to and dropped again by readBody.
 */
export interface HttpRequestIn extends HttpRequestHead {
  /** Where the connection was accepted: DNS-rebinding protection defaults on for a loopback address, and a loopback Origin must name this port. */
  readonly socket: { readonly localAddress?: string | undefined; readonly localPort?: number | undefined };
  /**
   * Keeps the host serving until `promise` settles, for work that outlives the response (a task's
   * run): a Worker's `ctx.waitUntil`. Hosts whose process outlives a response have none.
   */
  readonly waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
  /** Bytes of the body buffered and not read yet, and a read of all of them (node's IncomingMessage): see wholeBody. */
  readonly readableLength?: number;
  read?(): Uint8Array | null;
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  off(event: "end" | "close", listener: () => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
}

/** Response headers as writeHead takes them. */
export type ReplyHeaders = Readonly<Record<string, string | number>>;

/**
 * The response being written: a status and headers once, then text (an SSE stream) or one body.
 * `close` fires when the client goes away or the response is over; `writableLength` is what the
 * client has not read yet (a stream whose client stops reading is cut off past a bound).
 */
export interface HttpReply {
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
  /** The client is gone (or the response was destroyed): nothing written reaches it. */
  readonly destroyed: boolean;
  readonly writableLength: number;
  /** A header set before writeHead (a guard's `DPoP-Nonce` on an admitted request); writeHead's own headers win. */
  setHeader(name: string, value: string): unknown;
  writeHead(status: number, headers?: ReplyHeaders): this;
  write(chunk: string): unknown;
  end(body?: string): this;
  /** Send the status and headers now (an SSE stream with nothing to say yet). */
  flushHeaders(): void;
  destroy(): unknown;
  on(event: "close", listener: () => void): unknown;
  /** Hold writes until uncork (node: one packet for what is written meanwhile); hosts that queue writes anyway have none. */
  cork?(): void;
  uncork?(): void;
}

const nodeBuffer = (globalThis as { Buffer?: { byteLength(text: string): number } }).Buffer;
const encoder = new TextEncoder();

/**
 * Bytes of `text` in UTF-8 (a reply's Content-Length): node's Buffer.byteLength where the host has
 * it (counted natively, nothing allocated), else the length of its encoding.
 */
export const utf8Length: (text: string) => number =
  nodeBuffer !== undefined ? (text) => nodeBuffer.byteLength(text) : (text) => encoder.encode(text).byteLength;

/** A timer the process need not stay alive for (node's unref; hosts without it have no such notion). */
export function unrefTimer<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
