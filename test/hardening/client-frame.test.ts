// A client reads what servers return: a 5 MB resource (over the server-side 4 MiB cap) arrives
// whole over stdio with the client's default frame limit, quickly.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Session } from "@mcpgen/runtime/internal";
import { StdioClientTransport } from "@mcpgen/runtime/stdio";
import { latest } from "../runtime/helpers/binding.js";

const server = `
let buf = "";
process.stdin.setEncoding("utf8").on("data", (d) => {
  buf += d;
  let nl;
  while ((nl = buf.indexOf("\\n")) !== -1) {
    const m = JSON.parse(buf.slice(0, nl));
    buf = buf.slice(nl + 1);
    if ("id" in m && "method" in m) process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { contents: [{ uri: "file:///big.pdf", blob: "A".repeat(5 * 1024 * 1024) }] } }) + "\\n");
  }
});
process.stdin.on("end", () => process.exit(0));
`;

test("stdio client: a 5 MB response is read (client frame limit 64 MiB by default)", async () => {
  const t = new StdioClientTransport({ command: process.execPath, args: ["-e", server] });
  const errors: Error[] = [];
  const s = new Session({
    transport: t,
    side: "client",
    binding: latest,
    trustPeer: true,
    onerror: (e) => errors.push(e),
  });
  await t.start();
  try {
    const started = Date.now();
    const r = (await s.request("resources/read", { uri: "file:///big.pdf" }, { timeout: 10_000 })) as {
      contents: { blob: string }[];
    };
    assert.is(r.contents[0]!.blob.length, 5 * 1024 * 1024);
    assert.ok(Date.now() - started < 5000);
    assert.equal(errors, []);
  } finally {
    await s.close();
  }
});

test.run();
