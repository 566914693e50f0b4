/**
 * Load figures (`node --expose-gc dist/bench/load.js`, also run at the end of `npm run bench`):
 * 1,000 requests in flight on one stdio session; 100 Streamable HTTP sessions x 20 in flight;
 * 1,000 HTTP sessions opened and closed. Each against the "everything" example in its own
 * process (test/fuzz/target.ts, which reports memory and open sessions after a GC), checking
 * that every call is answered correctly and that the server is back to idle afterwards.
 */
import { connectMcpClient, type McpClient } from "@mcpgen/runtime";
import { StdioClientTransport } from "@mcpgen/runtime/stdio";
import { StreamableHttpClientTransport } from "@mcpgen/runtime/http";
import { fileURLToPath } from "node:url";
import { bindings } from "../examples/everything/src/mcp/bindings.js";
import { Target, type Stats } from "../test/fuzz/child.js";

const clientInfo = { name: "load", version: "1" };
const mib = (b: number | undefined) => (b === undefined ? "?" : (b / 1048576).toFixed(1));

function statsLine(label: string, idle: Stats | undefined, end: Stats | undefined): string {
  return `${label}: server RSS ${mib(idle?.rss)} -> ${mib(end?.rss)} MiB, heap ${mib(idle?.heap)} -> ${mib(end?.heap)} MiB after GC; open sessions ${end === undefined ? "?" : end.httpSessions > 0 || label.startsWith("http") ? end.httpSessions : end.sessions}, running ${end?.running ?? "?"}, pending ${end?.pending ?? "?"}`;
}

async function calls(client: McpClient, n: number): Promise<number> {
  const results = await Promise.all(
    Array.from({ length: n }, () => client.callTool("test_simple_text", {}, { timeout: 120_000 })),
  );
  return results.filter(
    (r) => r.isError !== true && (r.content[0] as { text?: string } | undefined)?.text !== undefined,
  ).length;
}

async function stdioInFlight(n: number): Promise<string> {
  // The target runs as the stdio child of the client here; its stats come over SIGUSR2 on stderr.
  const target = fileURLToPath(new URL("../test/fuzz/target.js", import.meta.url));
  const t = new StdioClientTransport({
    command: process.execPath,
    args: ["--expose-gc", target, "stdio"],
    stderr: "pipe",
  });
  let err = "";
  t.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
  const stats = async (): Promise<Stats | undefined> => {
    const before = err.length;
    process.kill(t.pid!, "SIGUSR2");
    for (let i = 0; i < 200; i++) {
      const m = /STATS (\{.*\})\n/.exec(err.slice(before));
      if (m) return JSON.parse(m[1]!) as Stats;
      await new Promise((r) => setTimeout(r, 10));
    }
    return undefined;
  };
  const client = await connectMcpClient(t, { bindings: [...bindings], clientInfo });
  const idle = await stats();
  const started = performance.now();
  const ok = await calls(client, n);
  const ms = performance.now() - started;
  const end = await stats();
  await client.close();
  return `${statsLine(`stdio, ${n} in flight on one session: ${ok}/${n} answered in ${ms.toFixed(0)} ms (${((n / ms) * 1000).toFixed(0)} calls/s)`, idle, end)}`;
}

async function httpSessions(sessions: number, inFlight: number, target: Target): Promise<string> {
  const idle = await target.stats();
  const started = performance.now();
  const clients = await Promise.all(
    Array.from({ length: sessions }, () =>
      connectMcpClient(new StreamableHttpClientTransport({ url: target.url!, openGetStream: false }), {
        bindings: [...bindings],
        clientInfo,
      }),
    ),
  );
  const ok = (await Promise.all(clients.map((c) => calls(c, inFlight)))).reduce((a, b) => a + b, 0);
  const ms = performance.now() - started;
  const busy = await target.stats();
  await Promise.all(clients.map((c) => c.close()));
  const end = await target.stats();
  return `${statsLine(`http, ${sessions} sessions x ${inFlight} in flight: ${ok}/${sessions * inFlight} answered in ${ms.toFixed(0)} ms including connects; ${busy?.httpSessions} sessions open at peak`, idle, end)}`;
}

async function openClose(n: number, parallel: number, target: Target): Promise<string> {
  const idle = await target.stats();
  const started = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (done < n) {
        done++;
        const c = await connectMcpClient(
          new StreamableHttpClientTransport({ url: target.url!, openGetStream: false }),
          { bindings: [...bindings], clientInfo },
        );
        await c.ping();
        await c.close();
      }
    }),
  );
  const ms = performance.now() - started;
  const end = await target.stats();
  return `${statsLine(`http, ${n} sessions opened, pinged and closed (${parallel} at a time): ${ms.toFixed(0)} ms`, idle, end)}`;
}

export async function runLoad(): Promise<string[]> {
  const out: string[] = [];
  out.push(await stdioInFlight(1000));
  const target = new Target("./target.js", ["http"]);
  await target.start();
  try {
    out.push(await httpSessions(100, 20, target));
    out.push(await openClose(1000, 10, target));
  } finally {
    await target.stop();
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await runLoad()) console.log(line);
}
