/**
 * The bytes one HTTP handler holds for the POST bodies it is reading, every request together. A
 * body is bounded in size (maxBodyBytes) and time (bodyTimeoutMs), but how many are read at once
 * is not: a thousand slow senders of 4 MiB bodies would have the handler buffer 4 GiB. readBody
 * charges each chunk as it arrives and releases the body's charge once it is handed on, refused
 * or cut off; a chunk that would pass the bound ends its body with BodyBufferFullError (503).
 */
import { MAX_BUFFERED_BODY_BYTES } from "../limits.js";

export class BufferedBodies {
  /** Bytes of bodies being read now. */
  used = 0;
  readonly max: number;

  constructor(max: number = MAX_BUFFERED_BODY_BYTES) {
    if (!Number.isSafeInteger(max) || max < 1)
      throw new TypeError(`maxBufferedBodyBytes must be a positive integer, got ${String(max)}`);
    this.max = max;
  }
}

/** A body that would take the bodies being read past their bound (BufferedBodies): answered 503, to be retried. */
export class BodyBufferFullError extends Error {}

/**
 * Headers of the 503 a refused body gets: the bodies that fill the buffer end within the body
 * timeout, and the rest of this one is not read, so its connection cannot carry another request.
 */
export const BUFFER_FULL_HEADERS: Readonly<Record<string, string>> = { "retry-after": "5", connection: "close" };
