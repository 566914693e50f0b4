import type { IncomingMessage, ServerResponse } from "node:http";

import type { RequestId } from "../jsonrpc.js";
import { BODY_TIMEOUT_MS, SERVER_MAX_MESSAGE_BYTES } from "../limits.js";
import { ownCopy } from "../session/own-copy.js";

/** Default cap on a POST body. */
export const DEFAULT_MAX_BODY_BYTES = SERVER_MAX_MESSAGE_BYTES;

export class BodyTooLargeError extends Error {}
export class BodyTimeoutError extends Error {}

/**
 * Reads the whole request body, refusing more than `limit` bytes without buffering past it, and
 * giving up after `timeoutMs` (slow senders must not hold a handler, whatever server hosts it).
 */
export function readBody(req: IncomingMessage, limit: number, timeoutMs = BODY_TIMEOUT_MS): Promise<Buffer> {
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > limit) {
    return Promise.reject(new BodyTooLargeError(`request body exceeds ${limit} bytes`));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = timeoutMs > 0 && Number.isFinite(timeoutMs)
      ? setTimeout(() => {
        cleanup();
        reject(new BodyTimeoutError(`request body not received within ${timeoutMs} ms`));
      }, timeoutMs)
      : undefined;
    const ondata = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        reject(new BodyTooLargeError(`request body exceeds ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    const onend = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onerror = (e: Error): void => {
      cleanup();
      reject(e);
    };
    const onaborted = (): void => {
      cleanup();
      reject(new Error("request aborted"));
    };
    const cleanup = (): void => {
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

/** An HTTP error with an id-less JSON-RPC error body. */
export function sendJsonError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, status, { jsonrpc: "2.0", id: null, error: { code, message } }, headers);
}

/** An HTTP error whose JSON-RPC body answers one message id (or null). */
export function sendJsonRpcError(res: ServerResponse, status: number, id: RequestId | null, code: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, status, { jsonrpc: "2.0", id, error: { code, message } });
}

/**
 * A complete JSON body with its Content-Length: `writeHead` fixes the headers, so without the
 * length node would send the body chunked, which costs the peer a chunk parser and a round of framing.
 */
export function sendJson(res: ServerResponse, status: number, value: unknown, headers?: Record<string, string>): void {
  const body = JSON.stringify(value);
  const h: Record<string, string | number> = ownCopy(headers);
  h["content-type"] = "application/json";
  h["content-length"] = Buffer.byteLength(body);
  res.writeHead(status, h);
  res.end(body);
}

/** Whether an Accept header admits a media type ("*\/*" and "type/*" count; absent admits everything). */
export function accepts(accept: string | undefined, type: string): boolean {
  if (accept === undefined || accept === "") return true;
  if (accept.includes(type) || accept.includes("*/*")) return true;
  const major = type.slice(0, type.indexOf("/"));
  return accept.includes(`${major}/*`);
}

export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-accel-buffering": "no",
} as const;
