/** Hostile server (a real child, hostile-server.ts) against our stdio client. */
import { fileURLToPath } from "node:url";
import { connectMcpClient, type McpClient } from "@mcpgen/runtime";
import { StdioClientTransport } from "@mcpgen/runtime/stdio";
import { bindings } from "../runtime/helpers/binding.js";
import { rng } from "./mutate.js";
import { catchEscapes, countInbound, driveBatch, gcRss } from "./client-driver.js";
import type { CampaignOptions } from "./server-stdio.js";
import { mib, newReport, sample, type Report } from "./report.js";

const FRAME = 1 << 20;

export async function fuzzStdioClient(o: CampaignOptions): Promise<Report> {
  catchEscapes();
  const report = newReport("stdio", "client");
  const started = Date.now();
  const r = rng(o.seed + 2);
  const script = fileURLToPath(new URL("./hostile-server.js", import.meta.url));
  let round = 0;
  const connect = async (): Promise<{ client: McpClient; t: StdioClientTransport }> => {
    const t = new StdioClientTransport({
      command: process.execPath,
      args: [script, String(o.seed * 1000 + round++), String(FRAME + 100)],
      maxMessageBytes: FRAME,
      stderr: "ignore",
    });
    const client = await connectMcpClient(t, {
      bindings,
      clientInfo: { name: "fuzz", version: "1" },
      onerror: () => {},
      timeout: 5000,
    });
    countInbound(t, report);
    return { client, t };
  };
  let { client } = await connect();
  gcRss();
  report.rssIdleMiB = mib(gcRss());
  report.heapIdleMiB = mib(process.memoryUsage().heapUsed);
  while (report.messages < o.count && Date.now() < o.deadline) {
    const ok = await driveBatch(client, r, report, Math.min(o.batch, 200), o.count);
    if (!ok || client.session.closed) {
      if (client.session.closed) sample(report, "the client session closed (the hostile child exited)");
      await client.close().catch(() => {});
      ({ client } = await connect());
    }
  }
  await client.close();
  report.rssEndMiB = mib(gcRss());
  report.heapEndMiB = mib(process.memoryUsage().heapUsed);
  report.seconds = Math.round((Date.now() - started) / 1000);
  return report;
}
