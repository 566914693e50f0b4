// 2026-07-28 multi round-trip requests against the "everything" example as a stdio child process:
// the requestState a server mints must be one it accepts back. The state carries the answers used
// so far (base64url of a JSON envelope, plus a 43-character HMAC), so an answer of N bytes grows it
// by about 4/3·N; an answer that would take it over the limit is refused in the round it arrives
// (-32602 naming the limit), and one that brings it exactly to the limit is carried to the end.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { mainJs, waitExit } from "../examples/helpers/everything-process.js";

/** The default requestState limit, in characters (docs/limits.md). */
const MAX_STATE = 256 * 1024;
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};
const TOOL = "test_input_required_result_multi_round";

const child = spawn(process.execPath, [mainJs, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
child.stderr!.resume();
const inbox: any[] = [];
createInterface({ input: child.stdout!, crlfDelay: Infinity }).on("line", (l) => inbox.push(JSON.parse(l)));
let nextId = 1;

async function call(params: object, ms = 10_000): Promise<any> {
  const id = nextId++;
  child.stdin!.write(
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: TOOL, arguments: {}, ...params, _meta: META },
    }) + "\n",
  );
  const until = Date.now() + ms;
  for (;;) {
    const i = inbox.findIndex((m) => m.id === id);
    if (i !== -1) return inbox.splice(i, 1)[0];
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode})`);
    if (Date.now() > until) throw new Error(`no reply to ${id} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const step1 = (name: string) => ({ step1: { action: "accept", content: { name } } });

/** Rounds 1 and 2: the first question, then the answer `name` to it; the round-2 reply. */
async function answerStep1(name: string): Promise<any> {
  const r1 = (await call({})).result;
  assert.is(r1.resultType, "input_required");
  assert.equal(Object.keys(r1.inputRequests), ["step1"]);
  return call({ inputResponses: step1(name), requestState: r1.requestState });
}

/**
 * The longest name whose state stays within the limit, from a state minted for a short name: the
 * state is "v1." + base64url(envelope) + "." + base64url(HMAC), and a longer ASCII name adds its
 * extra bytes to the envelope, each 3 bytes 4 characters.
 */
function longestName(probeName: string, probeState: string): { n: number; length: (n: number) => number } {
  const body = probeState.slice(3, probeState.lastIndexOf("."));
  const envelope = Buffer.from(body, "base64url").length;
  const overhead = probeState.length - body.length;
  const length = (n: number) => overhead + Math.ceil((4 * (envelope - probeName.length + n)) / 3);
  let n = 0;
  while (length(n + 1) <= MAX_STATE) n++;
  return { n, length };
}

test("an answer that brings requestState exactly to the limit is carried across rounds; one byte more is refused in its round", async () => {
  const probe = (await answerStep1("x")).result;
  assert.is(probe.resultType, "input_required");
  const { n, length } = longestName("x", probe.requestState);
  assert.ok(length(n) <= MAX_STATE && length(n + 1) > MAX_STATE, "the boundary lies between n and n + 1");

  // Just under: round 2 mints a state at the limit, round 3 accepts it and completes.
  const under = (await answerStep1("y".repeat(n))).result;
  assert.is(under.resultType, "input_required", "round 2 asks its second question");
  assert.equal(Object.keys(under.inputRequests), ["step2"]);
  assert.is(under.requestState.length, length(n));
  assert.ok(under.requestState.length > MAX_STATE - 2, "the state is at the limit");
  const done = (
    await call({
      inputResponses: { step2: { action: "accept", content: { color: "blue" } } },
      requestState: under.requestState,
    })
  ).result;
  assert.is(done.resultType, "complete");
  assert.is(done.content[0].text, `${"y".repeat(n)} likes blue`);

  // Just over: refused in round 2, naming the limit, instead of a state round 3 would refuse.
  const over = await answerStep1("z".repeat(n + 1));
  assert.is(over.result, undefined, "no state is minted");
  assert.is(over.error.code, -32602);
  assert.match(over.error.message, new RegExp(`requestState.*${MAX_STATE}`));
  assert.equal(over.error.data, {
    pointer: "/params/inputResponses",
    limit: "requestState.maxBytes",
    max: MAX_STATE,
    size: length(n + 1),
  });
});

test("the reviewer's case: a 200 KiB answer in round 2 is refused at once, not with a state the next round refuses", async () => {
  const r = await answerStep1("w".repeat(200 * 1024));
  assert.is(r.error?.code, -32602, JSON.stringify(r).slice(0, 200));
  assert.match(r.error.message, /requestState/);
  // The server goes on: a fresh call still works.
  assert.is((await call({})).result.resultType, "input_required");
});

test.after(async () => {
  child.stdin!.end();
  await waitExit(child, 3000);
});

test.run();
