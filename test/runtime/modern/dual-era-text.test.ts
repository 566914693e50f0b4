// A server of both eras on one stdio connection (the era router) answers each era's requests as
// text (TransportHints.sendResult), each line the JSON of the reply it stands for.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { PassThrough } from "node:stream";
import { StdioServerTransport } from "@mcpgen/runtime/stdio";
import { META, server } from "./fixture.js";
import { waitFor } from "../transports/helpers.js";

/** A stdio transport that counts the messages it was given as objects and as text (`send` writes through sendText). */
class CountingTransport extends StdioServerTransport {
  texts = 0;
  objects = 0;
  override send(...args: Parameters<StdioServerTransport["send"]>): Promise<void> {
    this.objects++;
    return super.send(...args);
  }
  override sendText(text: string, options?: Parameters<StdioServerTransport["sendText"]>[1]): Promise<void> {
    this.texts++;
    return super.sendText(text, options);
  }
}

test("a dual-era server over stdio answers both eras as text, each line the JSON of its reply", async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new CountingTransport({ stdin: input, stdout: output });
  const s = server();
  const lines: string[] = [];
  let buffered = "";
  output.setEncoding("utf8");
  output.on("data", (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      lines.push(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
    }
  });
  await s.connect(transport);
  const send = (m: object) => input.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n");
  try {
    const serverInfo = { name: "dual", version: "1.2.3" };
    const call = { name: "echo", arguments: { region: "eu" } };
    send({ id: 1, method: "tools/call", params: { ...call, _meta: META } });
    send({ id: 2, method: "tools/call", params: { ...call, _meta: META } });
    await waitFor(() => lines.length === 2, 2000, "two modern replies");
    const modernResult = {
      content: [{ type: "text", text: "region=eu" }],
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/serverInfo": serverInfo },
    };
    assert.is(lines[0], JSON.stringify({ jsonrpc: "2.0", id: 1, result: modernResult }));
    assert.is(lines[1], JSON.stringify({ jsonrpc: "2.0", id: 2, result: modernResult }));
    // A cacheable result's hints follow its `_meta`: written whole, the same bytes as before.
    send({ id: 3, method: "tools/list", params: { _meta: META } });
    await waitFor(() => lines.length === 3, 2000, "the tools/list reply");
    const list = JSON.parse(lines[2]!);
    assert.equal(Object.keys(list.result).slice(-3), ["_meta", "ttlMs", "cacheScope"]);
    assert.is(lines[2], JSON.stringify(list));

    send({
      id: 4,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } },
    });
    await waitFor(() => lines.length === 4, 2000, "the initialize reply");
    send({ method: "notifications/initialized" });
    send({ id: 5, method: "tools/call", params: call });
    await waitFor(() => lines.length === 5, 2000, "the legacy reply");
    assert.is(lines[4], JSON.stringify({ jsonrpc: "2.0", id: 5, result: { content: modernResult.content } }));
    // Every reply went out as text, none as an object: through the era router to either era's session.
    assert.is(transport.objects, 0);
    assert.is(transport.texts, 5);
  } finally {
    await s.close();
  }
});

test.run();
