// The everything example's Redis options as an operator meets them: an unreachable Redis is a
// clear error naming the URL with its password redacted (exit 1), a missing shared requestState
// key or a bad option a usage error (exit 2); nothing starts listening.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { mainJs } from "../examples/helpers/everything-process.js";

function run(
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [mainJs, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    let out = "";
    let err = "";
    child.stdout!.on("data", (d: Buffer) => void (out += d.toString()));
    child.stderr!.on("data", (d: Buffer) => void (err += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

const KEY = "ab".repeat(32);

test("an unreachable Redis: exit 1, the URL named, the password not", async () => {
  const r = await run(["--port", "0", "--redis", "redis://:hunter2@127.0.0.1:1"], {
    EVERYTHING_REQUEST_STATE_KEY: KEY,
  });
  assert.is(r.code, 1);
  assert.match(r.err, /cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1/);
  assert.not.match(r.err + r.out, /hunter2/);
  assert.not.match(r.out, /listening on/);
});

test("usage errors: no shared key, a bad URL, options that need --redis", async () => {
  const cases: [string[], Record<string, string | undefined>, RegExp][] = [
    [["--redis", "redis://127.0.0.1:1"], { EVERYTHING_REQUEST_STATE_KEY: undefined }, /EVERYTHING_REQUEST_STATE_KEY/],
    [["--redis", "redis://127.0.0.1:1"], { EVERYTHING_REQUEST_STATE_KEY: "abcd" }, /at least 64 hex digits/],
    [["--redis", "http://127.0.0.1:1"], { EVERYTHING_REQUEST_STATE_KEY: KEY }, /redis:\/\/ or rediss:\/\//],
    [["--redis-prefix", "x"], {}, /--redis-prefix takes --redis/],
    [["--task-lease", "5"], {}, /--task-lease takes --redis/],
    [["--public-url", "ftp://x/mcp"], {}, /http\(s\) URL/],
    [["--stdio", "--redis", "redis://127.0.0.1:1"], { EVERYTHING_REQUEST_STATE_KEY: KEY }, /--redis serves HTTP/],
  ];
  for (const [args, env, message] of cases) {
    const r = await run(args, env);
    assert.is(r.code, 2, `${args.join(" ")}: ${r.err}`);
    assert.match(r.err, message);
  }
});

test.run();
