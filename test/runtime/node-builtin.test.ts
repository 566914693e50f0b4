// The runtime loads Node built-ins through process.getBuiltinModule (runtime/src/node-builtin.ts),
// which Node.js has from 20.16 and 22.3: where it is missing, the feature that needs one says
// which Node.js it needs instead of failing on an undefined call.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { StdioClientTransport } from "@mcpgen/runtime/stdio";

type WithLoader = { getBuiltinModule?: unknown };

test("with process.getBuiltinModule the stdio client loads node:stream for its piped stderr", () => {
  const t = new StdioClientTransport({ command: process.execPath, stderr: "pipe" });
  assert.ok(t.stderr !== null);
});

test("without it (Node.js before 20.16, or 22.0 to 22.2) the error names the Node.js versions needed", () => {
  const p = process as WithLoader;
  const saved = p.getBuiltinModule;
  p.getBuiltinModule = undefined;
  try {
    assert.throws(
      () => new StdioClientTransport({ command: process.execPath, stderr: "pipe" }),
      (e: Error) => e.message.startsWith("node:stream is not available: this needs Node.js 20.16+ or 22.3+"),
    );
  } finally {
    p.getBuiltinModule = saved;
  }
});

test.run();
