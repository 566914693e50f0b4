/**
 * A hostile Streamable HTTP server (in this process, 127.0.0.1) against our HTTP client: mutated
 * JSON and SSE replies, deep and oversized events, streams cut before the response (with and
 * without event ids), error statuses, 202 for requests, wrong content types, dropped sockets.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { connectMcpClient, type McpClient } from "@mcpgen/runtime";
import { StreamableHttpClientTransport } from "@mcpgen/runtime/http";
import { bindings } from "../runtime/helpers/binding.js";
import { pick, rng, type Rng } from "./mutate.js";
import { hostileAnswer, unsolicited } from "./hostile.js";
import { catchEscapes, countInbound, driveBatch, gcRss } from "./client-driver.js";
import type { CampaignOptions } from "./server-stdio.js";
import { mib, newReport, type Report } from "./report.js";

const FRAME = 1 << 20;

function hostileHttp(r: Rng): http.Server {
  let eventSeq = 0;
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "GET") {
        if (r() < 0.7) return void res.writeHead(405).end();
        res.writeHead(200, { "content-type": "text/event-stream" });
        for (let i = Math.floor(r() * 4); i > 0; i--) res.write(`data: ${unsolicited(r)}\n\n`);
        return void setTimeout(() => res.end(), 20);
      }
      if (req.method === "DELETE") return void res.writeHead(200).end();
      let m: any;
      try {
        m = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return void res.writeHead(400).end();
      }
      if (!m || typeof m !== "object" || Array.isArray(m) || !("method" in m) || !("id" in m))
        return void res.writeHead(202).end();
      const lines = hostileAnswer(r, m, FRAME + 100);
      if (m.method === "initialize" || m.method === "ping") {
        return void res
          .writeHead(200, { "content-type": "application/json", "mcp-session-id": "hostile-session" })
          .end(lines[0]);
      }
      const roll = r();
      if (roll < 0.35) {
        res.writeHead(200, {
          "content-type": pick(r, [
            "application/json",
            "application/json",
            "text/plain",
            "application/json; charset=utf-8",
          ]),
        });
        return void res.end(lines.length ? lines[lines.length - 1] : "");
      }
      if (roll < 0.8) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        const withIds = r() < 0.5;
        const cut = r() < 0.15;
        const list = cut ? lines.slice(0, Math.max(0, lines.length - 1)) : lines;
        for (const l of list) res.write(`${withIds ? `id: e${eventSeq++}\n` : ""}data: ${l}\n\n`);
        if (cut && r() < 0.5) return void res.destroy();
        return void res.end();
      }
      if (roll < 0.88)
        return void res
          .writeHead(pick(r, [400, 404, 500, 503]), { "content-type": "application/json" })
          .end(pick(r, ["", "{}", "garbage", lines[0] ?? ""]));
      if (roll < 0.93) return void res.writeHead(202).end();
      return void res.destroy();
    });
  });
}

export async function fuzzHttpClient(o: CampaignOptions): Promise<Report> {
  catchEscapes();
  const report = newReport("http", "client");
  const started = Date.now();
  const r = rng(o.seed + 3);
  const server = hostileHttp(rng(o.seed + 4));
  await new Promise<void>((res) => server.listen(0, "127.0.0.1", res));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const connect = async (): Promise<McpClient> => {
    const t = new StreamableHttpClientTransport({
      url,
      maxMessageChars: FRAME,
      reconnect: { maxRetries: 1, initialDelayMs: 10, maxDelayMs: 50 },
      closeTimeoutMs: 200,
    });
    const client = await connectMcpClient(t, {
      bindings,
      clientInfo: { name: "fuzz", version: "1" },
      onerror: () => {},
      timeout: 5000,
    });
    countInbound(t, report);
    return client;
  };
  let client = await connect();
  gcRss();
  report.rssIdleMiB = mib(gcRss());
  report.heapIdleMiB = mib(process.memoryUsage().heapUsed);
  while (report.messages < o.count && Date.now() < o.deadline) {
    const ok = await driveBatch(client, r, report, Math.min(o.batch, 200), o.count);
    if (!ok || client.session.closed) {
      await client.close().catch(() => {});
      client = await connect();
    }
  }
  await client.close();
  server.closeAllConnections();
  await new Promise<void>((res) => server.close(() => res()));
  report.rssEndMiB = mib(gcRss());
  report.heapEndMiB = mib(process.memoryUsage().heapUsed);
  report.seconds = Math.round((Date.now() - started) / 1000);
  return report;
}
