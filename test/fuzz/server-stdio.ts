/**
 * Hostile client against our server over stdio (a real child process): batches of mutated and
 * damaged NDJSON lines; every line the oracle says is owed an answer must get the right one;
 * after each batch a valid request must still be answered, nothing may be left running or
 * pending, and the child's memory must return near its idle level.
 */
import { Target } from "./child.js";
import { damage, deepLine, mutateMessage, pick, rng, type Rng } from "./mutate.js";
import { expectLine, type Expectation } from "./oracle.js";
import { clientShapes, specExamples, type Json, type Msg } from "./seeds.js";
import { mib, newReport, sample, type Report } from "./report.js";

const MAX_BYTES = 4 * 1024 * 1024;
const MAX_DEPTH = 128;
const isId = (v: unknown) => typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v));

export interface CampaignOptions {
  count: number;
  deadline: number;
  seed: number;
  batch: number;
}

/** One line to send: bytes plus, for a tracked request, the id the fuzzer gave it. */
export function hostileLine(r: Rng, seeds: Msg[], n: number): Buffer {
  const roll = r();
  // Rare on purpose: each costs megabytes, and the classes are few (the mutations below also reach them).
  if (roll < 0.01) return Buffer.from(deepLine(r, `f${n}`, 60_000));
  if (roll < 0.0105)
    return Buffer.from(
      `{"jsonrpc":"2.0","id":"f${n}","method":"tools/call","params":{"name":"test_simple_text","arguments":{"s":"${"x".repeat(MAX_BYTES + 10)}"}}}`,
    );
  const m: Json = mutateMessage(r, pick(r, seeds));
  // Give every request with a usable id a fresh one, so replies can be matched to lines.
  if (m && typeof m === "object" && !Array.isArray(m) && "method" in m && "id" in m && isId(m.id)) m.id = `f${n}`;
  if (m && typeof m === "object" && !Array.isArray(m) && m.method === "notifications/cancelled")
    m.params = { requestId: "not-ours" };
  let text: string;
  try {
    text = JSON.stringify(m);
  } catch {
    text = deepLine(r, `f${n}`, 10_000);
  }
  return r() < 0.1 ? Buffer.from(damage(r, text).filter((c) => c !== 0x0a)) : Buffer.from(text);
}

export async function fuzzStdioServer(o: CampaignOptions): Promise<Report> {
  const report = newReport("stdio", "server");
  const started = Date.now();
  const r = rng(o.seed);
  const seeds = [...clientShapes, ...specExamples()];
  const target = new Target("./target.js", ["stdio"]);
  let inbox: any[] = [];
  const listens = new Set<string | number>();
  let buf = "";
  const attach = () => {
    buf = "";
    target.onstdout = (c) => {
      buf += c.toString("utf8");
      let nl;
      while ((nl = buf.indexOf("\n")) !== -1) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        let m: any;
        try {
          m = JSON.parse(line);
        } catch {
          report.wrongCodes++;
          sample(report, `server wrote a non-JSON line: ${line.slice(0, 200)}`);
          continue;
        }
        for (const x of Array.isArray(m) ? m : [m]) {
          // A 2026-07-28 subscriptions/listen is answered by its acknowledgement, and the stream stays
          // open until cancelled: count the acknowledgement as the owed answer, cancel at once, and
          // drop the closing response the server sends for it.
          if (x && typeof x === "object" && x.method === "notifications/subscriptions/acknowledged") {
            const sub = x.params?._meta?.["io.modelcontextprotocol/subscriptionId"];
            if (typeof sub === "string" || typeof sub === "number") {
              listens.add(sub);
              inbox.push({ id: sub, result: { acknowledged: x.params.notifications } });
              target.child.stdin!.write(
                JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: sub } }) +
                  "\n",
              );
            }
            continue;
          }
          if (x && typeof x === "object" && !("method" in x) && listens.delete(x.id)) continue;
          // The server asks us things (sampling, elicitation, roots): answer, so its tools finish.
          if (x && typeof x === "object" && "method" in x && "id" in x)
            target.child.stdin!.write(
              JSON.stringify({ jsonrpc: "2.0", id: x.id, error: { code: -32601, message: "fuzzer declines" } }) + "\n",
            );
          else if (x && typeof x === "object" && "id" in x) inbox.push(x);
        }
      }
    };
  };
  const write = (b: Buffer) => target.child.stdin!.write(Buffer.concat([b, Buffer.from("\n")]));
  const handshake = async () => {
    attach();
    await target.start();
    write(
      Buffer.from(
        JSON.stringify({
          jsonrpc: "2.0",
          id: "init",
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } },
        }),
      ),
    );
    await waitFor(() => inbox.some((m) => m.id === "init"), 5000);
    write(Buffer.from('{"jsonrpc":"2.0","method":"notifications/initialized"}'));
    inbox = [];
  };
  await handshake();
  const idle = await target.stats();
  report.rssIdleMiB = mib(idle?.rss ?? 0);
  report.heapIdleMiB = mib(idle?.heap ?? 0);
  let n = 0;
  let probe = 0;
  while (report.messages < o.count && Date.now() < o.deadline) {
    const expected: { line: Buffer; e: Expectation }[] = [];
    for (let i = 0; i < o.batch && report.messages < o.count; i++, n++) {
      const line = hostileLine(r, seeds, n);
      expected.push({ line, e: expectLine(line, MAX_BYTES, MAX_DEPTH) });
      write(line);
      report.messages++;
      if (i % 64 === 0) await drain(target);
    }
    const probeId = `probe${probe++}`;
    write(
      Buffer.from(
        JSON.stringify({
          jsonrpc: "2.0",
          id: probeId,
          method: "tools/call",
          params: { name: "test_simple_text", arguments: {} },
        }),
      ),
    );
    const owed = expected.filter((x) => x.e.reply && x.e.id !== undefined && x.e.id !== null).map((x) => x.e.id);
    const ok = await waitFor(
      () => inbox.some((m) => m.id === probeId) && owed.every((id) => inbox.some((m) => m.id === id)),
      10_000,
    );
    if (!target.alive) {
      report.crashes++;
      sample(report, `crash after a batch starting at line ${n - o.batch}`);
      await handshake();
      continue;
    }
    const probeReply = inbox.find((m) => m.id === probeId);
    if (!probeReply || !probeReply.result) {
      report.probeFailures++;
      sample(report, `probe ${probeId}: ${JSON.stringify(probeReply)}`);
    }
    if (!ok) await new Promise((res) => setTimeout(res, 100));
    const hangsBefore = report.hangs;
    check(
      report,
      expected,
      inbox.filter((m) => m.id !== probeId),
    );
    if (process.env.FUZZ_DUMP && report.hangs > hangsBefore) {
      (await import("node:fs")).writeFileSync(
        process.env.FUZZ_DUMP,
        JSON.stringify(
          {
            lines: expected.map((x) => ({
              line: x.line.length < 200_000 ? x.line.toString("base64") : "",
              len: x.line.length,
              e: x.e,
            })),
            replies: inbox,
          },
          null,
          1,
        ),
      );
    }
    inbox = [];
    const s = await target.stats();
    if (s && (s.running > 0 || s.pending > 0)) {
      // Give slow tools (progress, sampling) a moment, then count what is left.
      await new Promise((res) => setTimeout(res, 500));
      const again = await target.stats();
      if (again && (again.running > 0 || again.pending > 0)) {
        report.leaks += again.running + again.pending;
        sample(report, `left running ${again.running}, pending ${again.pending}`);
      }
    }
  }
  const end = await target.stats();
  if (process.env.FUZZ_DUMP)
    process.stderr.write(`[fuzz] idle ${JSON.stringify(idle)}\n[fuzz] end ${JSON.stringify(end)}\n`);
  report.rssEndMiB = mib(end?.rss ?? 0);
  report.heapEndMiB = mib(end?.heap ?? 0);
  report.crashes = Math.max(report.crashes, target.crashes);
  await target.stop();
  report.seconds = Math.round((Date.now() - started) / 1000);
  return report;
}

/** Match replies to what the oracle owes; count missing and wrong ones. */
export function check(report: Report, expected: { line: Buffer; e: Expectation }[], replies: any[]): void {
  const pool = [...replies];
  // Most specific first: a known id with known codes, a known id, id null, then "whatever id the scanner read".
  const rank = (e: Expectation) => (e.id === undefined ? 3 : e.id === null ? 2 : e.codes === undefined ? 1 : 0);
  const ordered = [...expected].sort((a, b) => rank(a.e) - rank(b.e));
  for (const { line, e } of ordered) {
    if (!e.reply) continue;
    const i = pool.findIndex(
      (m) =>
        (e.id === undefined || m.id === e.id) &&
        (e.codes === undefined ? true : m.error && e.codes.includes(m.error.code)),
    );
    if (i !== -1) {
      pool.splice(i, 1);
      continue;
    }
    const byId = e.id === undefined || e.id === null ? -1 : pool.findIndex((m) => m.id === e.id);
    if (byId !== -1) {
      report.wrongCodes++;
      sample(
        report,
        `wrong answer to ${line.toString("utf8").slice(0, 150)}: ${JSON.stringify(pool[byId]).slice(0, 200)} (expected ${JSON.stringify(e)})`,
      );
      pool.splice(byId, 1);
    } else if (e.id !== null) {
      report.hangs++;
      sample(report, `no answer to ${line.toString("utf8").slice(0, 200)} (expected ${JSON.stringify(e)})`);
    } else {
      // An id-null error owed: any id-null error left in the pool will do, else it is missing.
      const nul = pool.findIndex((m) => m.id === null);
      if (nul !== -1) pool.splice(nul, 1);
      else {
        report.hangs++;
        sample(report, `no id-null answer to ${line.toString("utf8").slice(0, 200)}`);
      }
    }
  }
  for (const m of pool) {
    if (typeof m.id === "string" && /^f\d+$/.test(m.id)) {
      report.wrongCodes++;
      sample(report, `answer to a message that is owed none: ${JSON.stringify(m).slice(0, 200)}`);
    }
  }
}

async function drain(t: Target): Promise<void> {
  const stdin = t.child.stdin!;
  if (stdin.writableLength > 1 << 20) await new Promise((res) => stdin.once("drain", res));
}

export async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) return false;
    await new Promise((res) => setTimeout(res, 5));
  }
  return true;
}
