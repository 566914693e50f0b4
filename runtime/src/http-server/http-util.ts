import type { RequestId } from "../jsonrpc.js";
import { BODY_TIMEOUT_MS, SERVER_MAX_MESSAGE_BYTES } from "../limits.js";
import { afterIo } from "../after-io.js";
import { OutlineScanner, type MessageOutline } from "../framing/scan.js";
import { BodyBufferFullError, type BufferedBodies } from "./buffered-bodies.js";
import { utf8Length, type HttpReply, type HttpRequestHead, type HttpRequestIn } from "../http-exchange.js";

/** Default cap on a POST body. */
export const DEFAULT_MAX_BODY_BYTES = SERVER_MAX_MESSAGE_BYTES;

export class BodyTooLargeError extends Error {
  constructor(
    message: string,
    /** What could be read of the message when the body was scanned for it (readBody's `outline`). */
    readonly outline?: MessageOutline,
  ) {
    super(message);
  }
}
export class BodyTimeoutError extends Error {}

/**
 * Reads the whole request body, refusing more than `limit` bytes without buffering past it, and
 * giving up after `timeoutMs` (slow senders must not hold a handler, whatever server hosts it).
 * With `scan` (what makes framing/scan.ts's OutlineScanner: the legacy era's side, the only one
 * that asks, hands it over), a body over the limit is still read to its end (within the same
 * time), scanned rather than kept, and the BodyTooLargeError carries its kind and id: a response in it can then
 * fail the request it answers at once instead of leaving it to time out.
 * With `buffered`, what is kept of the body is charged to it as it arrives, until the promise
 * settles; a body that would take it past its `max` is refused with BodyBufferFullError, before
 * anything is read when its declared length would, else at the chunk that would. A scanned body
 * keeps nothing and is not charged.
 */
export function readBodyWith(
  req: HttpRequestIn,
  limit: number,
  timeoutMs = BODY_TIMEOUT_MS,
  scan?: () => OutlineScanner,
  buffered?: BufferedBodies,
): Promise<Uint8Array> {
  const declared = headerValue(req, "content-length");
  const tooLong = declared !== undefined && Number(declared) > limit;
  if (tooLong && scan === undefined) {
    return Promise.reject(tooLarge(limit, undefined));
  }
  if (buffered !== undefined && !tooLong && declared !== undefined && buffered.used + Number(declared) > buffered.max) {
    return Promise.reject(bufferFull(buffered));
  }
  return new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    /** Bytes of `chunks`, charged to `buffered`. */
    let charged = 0;
    /** Reading an oversized body for its outline. */
    let scanner: OutlineScanner | undefined = tooLong ? scan!() : undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
      armAfterTurn(() => {
        if (settled) return;
        // The clock starts from the turn the read began in: at most one turn late.
        timer = setTimeout(() => {
          cleanup();
          reject(
            scanner !== undefined
              ? tooLarge(limit, scanner)
              : new BodyTimeoutError(`request body not received within ${timeoutMs} ms`),
          );
        }, timeoutMs);
      });
    }
    const ondata = (chunk: Uint8Array): void => {
      if (scanner !== undefined) return scanner.push(chunk);
      size += chunk.length;
      if (size > limit) {
        if (scan === undefined) {
          cleanup();
          reject(tooLarge(limit, undefined));
          return;
        }
        scanner = scan();
        for (const c of chunks) scanner.push(c);
        scanner.push(chunk);
        chunks.length = 0;
        uncharge();
        return;
      }
      if (buffered !== undefined) {
        if (buffered.used + chunk.length > buffered.max) {
          cleanup();
          reject(bufferFull(buffered));
          return;
        }
        buffered.used += chunk.length;
        charged += chunk.length;
      }
      chunks.push(chunk);
    };
    const uncharge = (): void => {
      if (charged === 0) return;
      buffered!.used -= charged;
      charged = 0;
    };
    const onend = (): void => {
      cleanup();
      if (scanner !== undefined) reject(tooLarge(limit, scanner));
      else resolve(chunks.length === 1 ? chunks[0]! : concat(chunks, size));
    };
    const onerror = (e: Error): void => {
      cleanup();
      reject(e);
    };
    const onaborted = (): void => {
      cleanup();
      // Cut short while being scanned: what was read of it still names the request it answers.
      reject(scanner !== undefined ? tooLarge(limit, scanner) : new Error("request aborted"));
    };
    const cleanup = (): void => {
      settled = true;
      uncharge();
      if (timer !== undefined) clearTimeout(timer);
      req.off("data", ondata);
      req.off("end", onend);
      req.off("error", onerror);
      req.off("close", onaborted);
    };
    req.on("data", ondata);
    req.on("end", onend);
    req.on("error", onerror);
    req.on("close", onaborted);
  });
}

/**
 * The whole body when the host has it buffered already (node, for a body that came in the packets
 * of its headers, once the turn that parsed them is over): its declared length, within `limit` and
 * what `buffered` may take, taken at once without listeners, a promise or a timer. Undefined
 * otherwise (nothing consumed): readBody then reads it as it comes, and refuses it as before.
 */
export function wholeBody(req: HttpRequestIn, limit: number, buffered?: BufferedBodies): Uint8Array | undefined {
  const have = req.readableLength;
  if (have === undefined || have === 0 || req.read === undefined) return undefined;
  const declared = headerValue(req, "content-length");
  if (declared === undefined || Number(declared) !== have || have > limit) return undefined;
  if (buffered !== undefined && buffered.used + have > buffered.max) return undefined;
  return req.read() ?? undefined;
}

/**
 * Body timers armed once the I/O turn their reads began in is over, by one callback for all of
 * them: a small body has arrived with its headers and its read has ended by then, so it never
 * costs a timer (node's setTimeout and clearTimeout per POST were ~2 µs of its CPU).
 */
let unarmed: (() => void)[] = [];
function armAfterTurn(arm: () => void): void {
  if (unarmed.length === 0) afterIo(armUnarmed, undefined);
  unarmed.push(arm);
}
function armUnarmed(): void {
  const arms = unarmed;
  unarmed = [];
  for (const arm of arms) arm();
}

/** The chunks of a body as one (node's Buffer.concat, without Buffer). */
function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

const newOutlineScanner = (): OutlineScanner => new OutlineScanner();

/**
 * readBodyWith, with `outline` asking for the scan of an oversized body. The endpoint of a server
 * without the legacy era calls readBodyWith, so its bundle carries no scanner.
 */
export function readBody(
  req: HttpRequestIn,
  limit: number,
  timeoutMs = BODY_TIMEOUT_MS,
  outline = false,
  buffered?: BufferedBodies,
): Promise<Uint8Array> {
  return readBodyWith(req, limit, timeoutMs, outline ? newOutlineScanner : undefined, buffered);
}

function tooLarge(limit: number, scanner: OutlineScanner | undefined): BodyTooLargeError {
  return new BodyTooLargeError(`request body exceeds ${limit} bytes`, scanner?.outline());
}

function bufferFull(buffered: BufferedBodies): BodyBufferFullError {
  return new BodyBufferFullError(
    `request bodies being read hold ${buffered.used} bytes, ${buffered.max} at most (maxBufferedBodyBytes)`,
  );
}

/** An HTTP error with a JSON-RPC error body, answering `id` (default: none, null). */
export function sendJsonError(
  res: HttpReply,
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
  id: RequestId | null = null,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJsonText(res, status, JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }), headers);
}

/**
 * A complete JSON body with its Content-Length: `writeHead` fixes the headers, so without the
 * length node would send the body chunked, which costs the peer a chunk parser and a round of framing.
 */
export function sendJsonText(res: HttpReply, status: number, body: string, headers?: Record<string, string>): void {
  const length = utf8Length(body);
  // A reply's headers are a literal: one object, no copy, on every JSON reply.
  res.writeHead(
    status,
    headers === undefined
      ? { "content-type": "application/json", "content-length": length }
      : { ...headers, "content-type": "application/json", "content-length": length },
  );
  res.end(body);
}

/** Whether an Accept header admits a media type ("*\/*" and "type/*" count; absent admits everything). */
export function accepts(accept: string | undefined, type: string): boolean {
  return (
    !accept ||
    accept.includes(type) ||
    accept.includes("*/*") ||
    accept.includes(`${type.slice(0, type.indexOf("/"))}/*`)
  );
}

export function headerValue(req: HttpRequestHead, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A client this far behind on reading an SSE stream is cut off (a legacy one may resume with Last-Event-ID). */
export const MAX_UNREAD_BYTES = 16 * 1024 * 1024;

// No `connection`: node sets it itself (fetch hosts drop it); proxies must not cache, transform or buffer.
export const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
} as const;
