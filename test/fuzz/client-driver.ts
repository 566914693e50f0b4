/**
 * Drives our client against a hostile server: batches of concurrent calls, each of which must
 * settle (resolve, or reject with one of the runtime's own error types) within its timeout plus
 * slack; then a ping must succeed, nothing may be left pending, and this process's memory must
 * return near idle. Crashes are exceptions or rejections that escape to the process.
 */
import type { McpClient, Transport } from "@mcpgen/runtime";
import { pick, type Rng } from "./mutate.js";
import { sample, type Report } from "./report.js";

export const escaped = { count: 0 };
let installed = false;
export function catchEscapes(): void {
  if (installed) return;
  installed = true;
  const note = (e: unknown) => {
    escaped.count++;
    if (escaped.count <= 5)
      process.stderr.write(
        `[fuzz] escaped: ${(e instanceof Error ? `${e.message.slice(0, 200)}\n${e.stack?.split("\n").slice(1, 6).join("\n")}` : String(e)).slice(0, 1500)}\n`,
      );
  };
  process.on("uncaughtException", note);
  process.on("unhandledRejection", note);
}

const OWN_ERRORS = new Set([
  "McpError",
  "InvalidResultError",
  "UnreadableResponseError",
  "RequestTimeoutError",
  "ConnectionClosedError",
  "LimitError",
  "HttpStatusError",
  "InvalidListEntryError",
  "FrameError",
]);

export const CALL_TIMEOUT_MS = 1000;

/** Count every message the client's transport delivers. */
export function countInbound(t: Transport, report: Report): void {
  const deliver = t.onmessage!;
  t.onmessage = (m, c) => {
    report.messages += Array.isArray(m) ? Math.max(1, m.length) : 1;
    deliver(m, c);
  };
  const frame = t.onframeerror;
  if (frame) {
    t.onframeerror = (e) => {
      report.messages++;
      frame(e);
    };
  }
}

function call(client: McpClient, r: Rng): Promise<unknown> {
  const o = { timeout: CALL_TIMEOUT_MS };
  switch (pick(r, ["listTools", "callTool", "readResource", "listPrompts", "setLevel", "listResources"])) {
    case "listTools":
      return client.listTools(o);
    case "callTool":
      return client.callTool("ok", { a: 1 }, o);
    case "readResource":
      return client.readResource("a://b", o);
    case "listPrompts":
      return client.listPrompts(o);
    case "setLevel":
      return client.setLoggingLevel("debug", o);
    default:
      return client.listResources(o);
  }
}

export async function driveBatch(
  client: McpClient,
  r: Rng,
  report: Report,
  batch: number,
  messagesCap: number,
): Promise<boolean> {
  const before = escaped.count;
  let issued = 0;
  while (issued < batch && report.messages < messagesCap) {
    const group: Promise<void>[] = [];
    for (let i = 0; i < 32 && issued < batch; i++, issued++) {
      const started = Date.now();
      const p = call(client, r);
      let settled = false;
      group.push(
        Promise.race([
          p.then(
            () => void (settled = true),
            (e: unknown) => {
              settled = true;
              const name = e instanceof Error ? e.name : typeof e;
              if (
                !OWN_ERRORS.has(name) &&
                !(
                  e instanceof Error &&
                  /^HTTP \d|POST failed|session expired|SSE|transport is closed|response body exceeds|POST reply is not JSON|socket hang up|ECONNRESET|response aborted/.test(
                    e.message,
                  )
                )
              ) {
                report.wrongCodes++;
                sample(report, `call rejected with ${name}: ${e instanceof Error ? e.message : String(e)}`);
              }
            },
          ),
          new Promise<void>((res) => setTimeout(res, CALL_TIMEOUT_MS * 10 + 3000)),
        ]).then(() => {
          if (!settled) {
            report.hangs++;
            sample(report, `call did not settle within ${Date.now() - started} ms`);
          }
        }),
      );
    }
    await Promise.all(group);
  }
  report.crashes += escaped.count - before;
  let probeOk = true;
  try {
    await client.ping({ timeout: 5000 });
  } catch (e) {
    probeOk = false;
    report.probeFailures++;
    sample(report, `ping failed: ${(e as Error).message}`);
  }
  if (client.session.pendingCount > 0) {
    report.leaks += client.session.pendingCount;
    sample(report, `${client.session.pendingCount} requests left pending`);
  }
  return probeOk;
}

export function gcRss(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  return process.memoryUsage().rss;
}
