import { createParser, type EventSourceParser } from "eventsource-parser";

export interface SseEvent {
  event?: string;
  id?: string;
  /** Reconnection delay in milliseconds. */
  retry?: number;
  /** May contain newlines; each line becomes its own `data:` field. */
  data?: string;
}

const NEWLINES = /\r\n|\r|\n/;

/** Encodes one SSE event. Field values other than data must not contain newlines. */
export function encodeSseEvent(ev: SseEvent): string {
  let out = "";
  if (ev.event !== undefined) out += `event: ${assertLine(ev.event)}\n`;
  if (ev.id !== undefined) out += `id: ${assertLine(ev.id)}\n`;
  if (ev.retry !== undefined) out += `retry: ${Math.max(0, Math.floor(ev.retry))}\n`;
  if (ev.data !== undefined) {
    // Fast path: serialised JSON never contains a raw newline.
    if (ev.data.indexOf("\n") === -1 && ev.data.indexOf("\r") === -1) out += `data: ${ev.data}\n`;
    else for (const line of ev.data.split(NEWLINES)) out += `data: ${line}\n`;
  }
  return out + "\n";
}

/**
 * A `message` event carrying JSON text, which holds no raw line break: the per-message case of
 * encodeSseEvent, built without an event object or the data's line scan. `line`: the id is known
 * to be one line (made by the caller's own store from its own stream ids), not scanned again.
 */
export function encodeSseMessage(json: string, id?: string, line = false): string {
  return `event: message\n${id === undefined ? "" : `id: ${line ? id : assertLine(id)}\n`}data: ${json}\n\n`;
}

/**
 * A priming event (an id, no data) without an event object: `retry` the retry field's line, made
 * once per transport (`retry: <ms>` and a newline, or empty); `line` as for encodeSseMessage.
 */
export function encodeSsePriming(id: string, retry: string, line: boolean): string {
  return `id: ${line ? id : assertLine(id)}\n${retry}data: \n\n`;
}

/** A comment line (keep-alive); peers ignore it. */
export function encodeSseComment(text = ""): string {
  return `: ${text.replace(/[\r\n]+/g, " ")}\n\n`;
}

function assertLine(value: string): string {
  if (value.indexOf("\n") !== -1 || value.indexOf("\r") !== -1)
    throw new Error("SSE field value must not contain a newline");
  return value;
}

export interface SseDecoderHandlers {
  onevent: (event: { event?: string; id?: string; data: string }) => void;
  onretry?: (ms: number) => void;
  oncomment?: (text: string) => void;
  onerror?: (error: Error) => void;
}

/** Decodes an SSE byte stream (chunks may split UTF-8 sequences and lines anywhere). */
export class SseDecoder {
  private readonly parser: EventSourceParser;
  private readonly text = new TextDecoder("utf-8");

  constructor(handlers: SseDecoderHandlers, options: { maxBufferChars?: number } = {}) {
    this.parser = createParser({
      onEvent: (e) => handlers.onevent(e),
      onRetry: handlers.onretry,
      onComment: handlers.oncomment,
      onError: (e) => handlers.onerror?.(e),
      maxBufferSize: options.maxBufferChars,
    });
  }

  push(chunk: Uint8Array | string): void {
    this.parser.feed(typeof chunk === "string" ? chunk : this.text.decode(chunk, { stream: true }));
  }

  /** End of stream: a trailing event without its blank line is dropped, as SSE requires. */
  end(): void {
    const rest = this.text.decode();
    if (rest) this.parser.feed(rest);
    this.parser.reset();
  }
}
