// One hostile stdio line must never kill a server process: deep nesting in ids, error messages and
// params, ids of the wrong type, oversized requests. Each gets the right JSON-RPC answer (or a
// quiet drop for responses nobody asked for) and the server goes on answering.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mainJs, waitExit } from "../examples/helpers/everything-process.js";

const deep = (n: number) => "[".repeat(n) + "]".repeat(n);

interface Child {
  child: ChildProcessWithoutNullStreams;
  lines: any[];
  send(line: string): void;
  reply(id: unknown, ms?: number): Promise<any>;
}

function start(): Child {
  const child = spawn(process.execPath, [mainJs, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  child.stderr.resume();
  const lines: any[] = [];
  let buf = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf("\n")) !== -1) {
      lines.push(JSON.parse(buf.slice(0, nl)));
      buf = buf.slice(nl + 1);
    }
  });
  return {
    child,
    lines,
    send: (line) => void child.stdin.write(line + "\n"),
    async reply(id, ms = 5000) {
      const until = Date.now() + ms;
      for (;;) {
        const i = lines.findIndex((l) => "id" in l && l.id === id && ("result" in l || "error" in l));
        if (i !== -1) return lines.splice(i, 1)[0];
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before answering ${id}`);
        if (Date.now() > until) throw new Error(`no reply to ${JSON.stringify(id)} within ${ms} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}

const init = {
  jsonrpc: "2.0",
  id: "init",
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

test("deeply nested ids, error messages and params before initialize: the server survives and answers", async () => {
  const c = start();
  try {
    c.send(`{"jsonrpc":"2.0","id":${deep(20000)},"result":{}}`);
    c.send(`{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":${deep(20000)}}}`);
    c.send(`{"jsonrpc":"2.0","id":"d","method":"ping","params":{"x":${deep(5000)}}}`);
    c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${deep(5000)}}}`);
    const d = await c.reply("d");
    assert.is(d.error.code, -32600, "a too-deep request is refused by its own id");
    c.send(JSON.stringify(init));
    assert.ok((await c.reply("init")).result.protocolVersion);
    c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`);
    c.send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`);
    assert.equal((await c.reply("p")).result, {});
  } finally {
    c.child.stdin.end();
    await waitExit(c.child, 3000);
  }
  assert.is(c.child.exitCode, 0, "clean exit on EOF, no crash");
});

test("ids that are not a string or a safe integer get -32600 with id null; the session goes on", async () => {
  const c = start();
  try {
    c.send(JSON.stringify(init));
    await c.reply("init");
    c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`);
    for (const id of ["{}", "[1]", "true", "1e400", "9007199254740993", "1.5"]) {
      c.send(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
      const r = await c.reply(null);
      assert.is(r.error.code, -32600, `id ${id}`);
    }
    c.send(`{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}`);
    assert.equal((await c.reply(9007199254740991)).result, {});
  } finally {
    c.child.stdin.end();
    await waitExit(c.child, 3000);
  }
});

test("an oversized request (over 4 MiB) is refused at once by its id; the next one is answered", async () => {
  const c = start();
  try {
    c.send(JSON.stringify(init));
    await c.reply("init");
    c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`);
    c.send(
      `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"test_simple_text","arguments":{"s":"${"x".repeat(5 * 1024 * 1024)}"}}}`,
    );
    const big = await c.reply("big");
    assert.is(big.error.code, -32600);
    assert.match(big.error.message, /exceeds 4194304 bytes/);
    c.send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`);
    assert.equal((await c.reply("p")).result, {});
  } finally {
    c.child.stdin.end();
    await waitExit(c.child, 3000);
  }
});

test.run();
