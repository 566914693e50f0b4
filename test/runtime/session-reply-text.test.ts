// A session on a transport that takes text (NDJSON) writes a result's response as the text
// JSON.stringify writes of the response object, without making it; a result JSON cannot hold
// is reported and the connection goes on.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { PassThrough } from "node:stream";
import { StdioServerTransport } from "@mcpgen/runtime/stdio";
import { Session } from "@mcpgen/runtime/internal";
import { latest } from "./helpers/binding.js";
import { waitFor } from "./transports/helpers.js";

async function serve(handler: (params: any) => unknown) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new StdioServerTransport({ stdin: input, stdout: output });
  const errors: Error[] = [];
  const session = new Session({
    transport,
    side: "server",
    binding: latest,
    trustPeer: true,
    requestHandlers: new Map([["tools/call", handler]]),
    onerror: (e) => errors.push(e),
  });
  await transport.start();
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
  const call = (id: unknown, args: unknown) =>
    input.write(
      JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "t", arguments: args } }) + "\n",
    );
  return { session, lines, errors, call };
}

test("a result's response line is JSON.stringify of the response, for number and string ids", async () => {
  const s = await serve((p) => ({
    content: [{ type: "text", text: p.arguments.text }],
    structuredContent: p.arguments,
  }));
  try {
    const args = { text: 'é \u2028 " \\ \n 𝄞', n: -0, list: [1, null, { x: true }] };
    s.call(7, args);
    s.call('a "quoted" id\n', args);
    await waitFor(() => s.lines.length === 2, 2000, "two responses");
    const result = { content: [{ type: "text", text: args.text }], structuredContent: args };
    assert.is(s.lines[0], JSON.stringify({ jsonrpc: "2.0", id: 7, result }));
    assert.is(s.lines[1], JSON.stringify({ jsonrpc: "2.0", id: 'a "quoted" id\n', result }));
    assert.equal(s.errors, []);
  } finally {
    await s.session.close();
  }
});

test("a result JSON cannot hold is reported; the next request is answered", async () => {
  const s = await serve((p) => (p.arguments.big ? { value: 1n } : { content: [] }));
  try {
    s.call(1, { big: true });
    s.call(2, {});
    await waitFor(() => s.lines.length === 1 && s.errors.length === 1, 2000, "one response, one error");
    assert.is(s.lines[0], '{"jsonrpc":"2.0","id":2,"result":{"content":[]}}');
    assert.match(s.errors[0]!.message, /BigInt/);
  } finally {
    await s.session.close();
  }
});

test.run();
