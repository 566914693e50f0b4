/**
 * Byte-level looks at a JSON message without building it: how deep it nests (checked before
 * anything recursive touches a parsed value) and, for a message too large to parse, which
 * top-level keys it has and its `id`, so that one request can be failed at once instead of
 * timing out. Structural characters are ASCII, so bytes and UTF-16 code units scan alike.
 */
import type { RequestId } from "../jsonrpc.js";
import { isRequestId } from "../request-id.js";

const UTF8 = new TextDecoder();

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * Heap bytes JSON.parse spends beyond the text itself, per array or object and per element or
 * member (a `,` or `:` outside strings), measured on V8 (Node 20): with them textFootprint stays
 * within about a factor of two of the parsed value's size, whether the text is one long string,
 * numbers, many keys or empty objects (where the value is over 20 times the text).
 */
const CONTAINER_BYTES = 48;
const MEMBER_BYTES = 8;

/** Whether the JSON text in `buf[start, end)` nests arrays/objects deeper than `max`. */
export function exceedsDepth(buf: Uint8Array, start: number, end: number, max: number): boolean {
  // A value nested d deep needs at least 2d bytes.
  if (end - start <= 2 * max) return false;
  let depth = 0;
  let inString = false;
  for (let i = start; i < end; i++) {
    const c = buf[i]!;
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

/**
 * Deepest `max` a parsed value may be checked for by walking it instead of its text: the walk
 * recurses once per level, so a larger limit is checked on the bytes (exceedsDepth).
 */
export const MAX_WALKED_DEPTH = 1024;

/**
 * Whether a value JSON.parse built nests arrays/objects deeper than `max` (the same verdict as
 * exceedsDepth on its text). Cheaper than the byte scan for messages of long keys and strings
 * (a 2026-07-28 request's `_meta`): it visits members, not characters. Stops `max + 1` levels
 * down, so a deep value costs no more stack than the limit allows; `max` at most MAX_WALKED_DEPTH.
 */
export function valueExceedsDepth(value: unknown, max: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (max === 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (valueExceedsDepth(value[i], max - 1)) return true;
    return false;
  }
  // JSON.parse makes plain objects whose members are all own and enumerable.
  for (const k in value) if (valueExceedsDepth((value as Record<string, unknown>)[k], max - 1)) return true;
  return false;
}

/** The same for a JSON string (SSE event data, POST bodies): textFootprint's pass, so it stays copy-free. */
export function textExceedsDepth(text: string, max: number): boolean {
  return textFootprint(text, max) < 0;
}

/**
 * About how many bytes of heap the value of the JSON text `text` takes once parsed, or -1 when it
 * nests deeper than `max`: what a request is charged against its session's byte budget while it
 * runs (MessageContext.bytes).
 */
export function textFootprint(text: string, max: number): number {
  // Too short to nest too deep, and too short for what it holds to matter.
  if (text.length <= 2 * max) return text.length;
  let depth = 0;
  let inString = false;
  let containers = 0;
  let members = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === COMMA || c === COLON) members++;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return -1;
      containers++;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return text.length + CONTAINER_BYTES * containers + MEMBER_BYTES * members;
}

export type MessageKind = "request" | "notification" | "response" | "unknown";

/** What could be read of a message that was not delivered. */
export interface MessageOutline {
  kind: MessageKind;
  /** The top-level id when it is a usable request id. */
  id: RequestId | undefined;
}

/** Kind and id of a parsed value, reading only its top level. */
export function outlineOf(value: unknown): MessageOutline {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { kind: "unknown", id: undefined };
  const m = value as Record<string, unknown>;
  const id = isRequestId(m.id) ? m.id : undefined;
  if ("method" in m) return { kind: "id" in m ? "request" : "notification", id };
  // Without an id it is no response (the session answers such a message -32600, id null).
  if (("result" in m || "error" in m) && "id" in m) return { kind: "response", id };
  return { kind: "unknown", id };
}

const KEY_CAP = 8;
const VALUE_CAP = 1024;

/**
 * Streams over the bytes of one (oversized) JSON text and remembers its top-level keys of
 * interest and the raw text of its top-level `id`. Memory is constant whatever the length.
 */
export class OutlineScanner {
  private depth = 0;
  private inString = false;
  private escape = false;
  /** At depth 1: collecting a key (bytes), between key and ':' , or reading a value. */
  private key: number[] | undefined;
  private lastKey = "";
  private afterColon = false;
  private idText: number[] | undefined;
  private idDone = false;
  private seen = { method: false, id: false, result: false, error: false };

  push(buf: Uint8Array, start = 0, end = buf.length): void {
    for (let i = start; i < end; i++) this.byte(buf[i]!);
  }

  private byte(c: number): void {
    const top = this.depth === 1;
    if (this.inString) {
      if (!this.escape && c === QUOTE) {
        this.inString = false;
        if (top && this.key !== undefined) {
          this.lastKey = this.key.length <= KEY_CAP ? String.fromCharCode(...this.key) : "";
          this.key = undefined;
          return;
        }
      } else this.escape = !this.escape && c === BACKSLASH;
      if (top && this.key !== undefined && this.key.length <= KEY_CAP) this.key.push(c);
      if (top && this.idText !== undefined && this.idText.length <= VALUE_CAP) this.idText.push(c);
      return;
    }
    if (top) {
      if (c === QUOTE) {
        this.inString = true;
        if (!this.afterColon) this.key = [];
        else if (this.idText !== undefined) this.idText.push(c);
        return;
      }
      if (c === 0x3a /* : */ && !this.afterColon) {
        this.afterColon = true;
        if (this.lastKey in this.seen) this.seen[this.lastKey as keyof typeof this.seen] = true;
        if (this.lastKey === "id" && !this.idDone) this.idText = [];
        return;
      }
      if (c === 0x2c /* , */) {
        this.endValue();
        return;
      }
      if (this.idText !== undefined && c !== OPEN_ARRAY && c !== OPEN_OBJECT && c !== CLOSE_OBJECT) {
        if (this.idText.length <= VALUE_CAP) this.idText.push(c);
        return;
      }
    }
    if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (top && this.idText !== undefined) this.idText.length = VALUE_CAP + 1; // a nested id is no id
      this.depth++;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      if (top) this.endValue();
      this.depth--;
    } else if (c === QUOTE) this.inString = true;
  }

  private endValue(): void {
    this.afterColon = false;
    if (this.idText !== undefined) {
      this.idDone = true;
      this.idValue = this.idText.length <= VALUE_CAP ? UTF8.decode(Uint8Array.from(this.idText)).trim() : "";
      this.idText = undefined;
    }
  }

  private idValue = "";

  /** What was seen so far (call at the end of the text, or at any point for a partial outline). */
  outline(): MessageOutline {
    if (this.idText !== undefined) this.endValue();
    let id: RequestId | undefined;
    if (this.idValue !== "") {
      try {
        const parsed: unknown = JSON.parse(this.idValue);
        if (isRequestId(parsed)) id = parsed;
      } catch {
        id = undefined;
      }
    }
    const s = this.seen;
    const kind: MessageKind = s.method
      ? s.id
        ? "request"
        : "notification"
      : (s.result || s.error) && s.id
        ? "response"
        : "unknown";
    return { kind, id };
  }
}
