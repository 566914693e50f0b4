// What the cluster tests of legacy streams share: raising a change on one instance, and reading a
// stream's SSE events with bounded waits.
import * as assert from "uvu/assert";
import type { Cluster } from "./cluster.js";

export const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** A tools list change raised on instance `i` (a 2026-07-28 call of the trigger tool). */
export async function raise(cluster: Cluster, i: number): Promise<void> {
  const res = await fetch(cluster.instances[i]!.url, {
    method: "POST",
    signal: AbortSignal.timeout(5000),
    headers: {
      ...JSON_HEADERS,
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "test_trigger_tool_change",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "test_trigger_tool_change",
        arguments: {},
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
  assert.is(res.status, 200, await res.text());
}

/** Reads SSE events (id, method, params and the whole message) from a stream until `n` message events arrived (bounded: 10 s). */
export class Events {
  readonly seen: { id: string; method: string; params?: { uri?: string }; message: Record<string, unknown> }[] = [];
  private text = "";
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();

  constructor(res: Response) {
    this.reader = res.body!.getReader();
  }

  async until(n: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (this.seen.length < n) {
      if (Date.now() > deadline) throw new Error(`only ${this.seen.length} of ${n} events: ${this.text.slice(-500)}`);
      const { value, done } = await this.reader.read();
      if (done) throw new Error(`stream ended after ${this.seen.length} events`);
      this.text += this.decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = this.text.indexOf("\n\n")) !== -1) {
        const block = this.text.slice(0, cut);
        this.text = this.text.slice(cut + 2);
        const id = /^id: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (id !== undefined && data !== undefined) {
          const m = JSON.parse(data) as { method: string; params?: { uri?: string } };
          this.seen.push({ id, method: m.method, params: m.params, message: m });
        }
      }
    }
  }

  cancel(): void {
    void this.reader.cancel().catch(() => {});
  }
}

/** The sequence number of an event id (its stream's counter). */
export function seq(id: string): number {
  return Number(id.slice(id.lastIndexOf("_") + 1));
}
