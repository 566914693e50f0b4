/**
 * Hostile client against our Streamable HTTP server (a real child on 127.0.0.1): mutated bodies,
 * damaged bytes, wrong and missing headers, unknown session ids, bodies cut short (resets), and
 * stray GET/DELETE, and a flood of listens whose connections are dropped. Every request must get a
 * complete HTTP answer with the right status and JSON-RPC code; after each batch the sessions the
 * fuzzer opened are deleted and none may remain, no listen may remain open, a valid call must
 * still be answered, and the child's memory must return near idle.
 */
import * as http from "node:http";
import { limits } from "@mcpgen/runtime";
import { Target, type Stats } from "./child.js";
import { damage, pick, rng, type Rng } from "./mutate.js";
import { hostileLine, waitFor, type CampaignOptions } from "./server-stdio.js";
import { clientShapes, specExamples } from "./seeds.js";
import { depth } from "./oracle.js";
import { mib, newReport, sample, type Report } from "./report.js";

const MAX_BYTES = 4 * 1024 * 1024;
/** One session's share of the example's default task store (docs/task-stores.md, Quotas). */
const TASK_QUOTA = Math.floor(limits.MAX_TASKS * limits.TASK_OWNER_SHARE);
const MAX_DEPTH = 128;
/** Listens the flood step opens (and drops) per batch. */
const LISTENS_PER_BATCH = 16;
const LISTEN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const isId = (v: unknown) => typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v));

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(
  agent: http.Agent,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  cut: boolean,
): Promise<Reply | "reset" | "timeout"> {
  return new Promise((resolve) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      const sse = String(res.headers["content-type"] ?? "").startsWith("text/event-stream");
      res.on("data", (c: Buffer) => {
        chunks.push(c);
        // A 2026-07-28 subscriptions/listen stream stays open after its acknowledgement: that is
        // its answer, and closing the stream is how a client cancels it.
        if (sse && c.includes("notifications/subscriptions/acknowledged")) {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") });
          req.destroy();
        }
      });
      res.on("end", () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") });
      });
      res.on("error", () => resolve("reset"));
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve("timeout");
    }, 15_000);
    req.on("error", () => {
      clearTimeout(timer);
      resolve("reset");
    });
    if (cut && body) {
      req.setHeader("content-length", String(body.length + 100));
      req.write(body);
      setTimeout(() => req.destroy(), 5);
    } else req.end(body);
  });
}

/** The JSON-RPC messages of a reply body (JSON or SSE). */
function messages(reply: Reply): any[] {
  const ctype = String(reply.headers["content-type"] ?? "");
  if (ctype.startsWith("text/event-stream")) {
    const out: any[] = [];
    for (const line of reply.body.split("\n"))
      if (line.startsWith("data: ") && line.length > 6) out.push(JSON.parse(line.slice(6)));
    return out;
  }
  return reply.body === "" ? [] : [JSON.parse(reply.body)];
}

/** Status and code the server owes one well-addressed POST body (headers all valid). */
function owed(body: Buffer): { status: number[]; id?: string | number | null; code?: number } {
  if (body.length > MAX_BYTES) return { status: [413] };
  let v: any;
  try {
    v = JSON.parse(body.toString("utf8"));
  } catch {
    return { status: [400], id: null, code: -32700 };
  }
  if (Array.isArray(v)) return { status: [400] };
  if (typeof v !== "object" || v === null) return { status: [400], id: null, code: -32600 };
  const deep = depth(v) > MAX_DEPTH;
  if ("method" in v && "id" in v) {
    if (!isId(v.id)) return { status: [400], id: null, code: -32600 };
    if (deep) return { status: [400], id: v.id, code: -32600 };
    if (v.method === "initialize") return { status: [200, 400] };
    return { status: [200], id: v.id };
  }
  if (deep) return { status: [400], id: null, code: -32600 };
  if ("method" in v || "id" in v) return { status: [202] };
  return { status: [400], id: null, code: -32600 };
}

export async function fuzzHttpServer(o: CampaignOptions): Promise<Report> {
  const report = newReport("http", "server");
  const started = Date.now();
  const r: Rng = rng(o.seed + 1);
  const seeds = [...clientShapes, ...specExamples()];
  const target = new Target("./target.js", ["http"]);
  await target.start();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const ACCEPT = "application/json, text/event-stream";
  const opened = new Set<string>();
  const open = async (): Promise<string | undefined> => {
    const init = Buffer.from(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } },
      }),
    );
    const res = await send(
      agent,
      target.url!,
      "POST",
      { "content-type": "application/json", accept: ACCEPT },
      init,
      false,
    );
    if (typeof res === "string" || res.status !== 200) return undefined;
    const sid = res.headers["mcp-session-id"] as string;
    opened.add(sid);
    await send(
      agent,
      target.url!,
      "POST",
      {
        "content-type": "application/json",
        accept: ACCEPT,
        "mcp-session-id": sid,
        "mcp-protocol-version": "2025-11-25",
      },
      Buffer.from('{"jsonrpc":"2.0","method":"notifications/initialized"}'),
      false,
    );
    return sid;
  };
  let sid = await open();
  const idle = await target.stats();
  report.rssIdleMiB = mib(idle?.rss ?? 0);
  report.heapIdleMiB = mib(idle?.heap ?? 0);
  let n = 0;
  let leakedSessions = 0;
  let leakedListens = 0;
  while (report.messages < o.count && Date.now() < o.deadline) {
    if (!target.alive) {
      report.crashes++;
      await target.start();
      opened.clear();
      leakedSessions = 0;
      leakedListens = 0;
      sid = await open();
    }
    const jobs: Promise<void>[] = [];
    for (let i = 0; i < o.batch && report.messages < o.count; i++, n++) {
      report.messages++;
      const line = hostileLine(r, seeds, n);
      const headers: Record<string, string> = {
        "content-type": "application/json",
        accept: ACCEPT,
        "mcp-protocol-version": "2025-11-25",
      };
      if (sid) headers["mcp-session-id"] = sid;
      let valid = true;
      const roll = r();
      if (roll < 0.04) {
        headers["content-type"] = pick(r, ["text/plain", "application/jsonx", "text/plain; a=application/json", ""]);
        valid = false;
      } else if (roll < 0.07) {
        headers.accept = pick(r, ["text/html", "application/xml"]);
        valid = false;
      } else if (roll < 0.1) {
        headers["mcp-session-id"] = pick(r, ["nope", "", "x".repeat(300)]);
        valid = false;
      } else if (roll < 0.12) {
        headers["mcp-protocol-version"] = pick(r, ["1999-01-01", "garbage"]);
        valid = false;
      } else if (roll < 0.13) {
        headers.host = pick(r, ["evil.example", `localhost:${target.url!.port}@evil.example`, "[::1"]);
        valid = false;
      } else if (roll < 0.14) {
        headers.origin = "http://evil.example";
        valid = false;
      }
      const cut = r() < 0.02;
      const method = r() < 0.02 ? pick(r, ["GET", "DELETE", "PUT"]) : "POST";
      const body = r() < 0.05 ? damage(r, line.toString("utf8")) : line;
      jobs.push(
        // Stray GET/DELETE go to sessions that are not the main one (deleting that is legitimate, and ends the run's session).
        send(
          agent,
          target.url!,
          method,
          method === "POST"
            ? headers
            : { ...headers, accept: "text/event-stream", "mcp-session-id": pick(r, ["nope", "", "x".repeat(100)]) },
          method === "POST" ? body : undefined,
          cut && method === "POST",
        ).then((res) => {
          if (res === "reset") {
            if (!cut && method === "POST" && body.length <= MAX_BYTES) {
              report.hangs++;
              sample(report, `connection reset on ${body.toString("utf8").slice(0, 150)}`);
            }
            return;
          }
          if (res === "timeout") {
            if (method === "GET" && !cut) return; // a GET stream legitimately stays open
            report.hangs++;
            sample(report, `no HTTP answer within 15 s to ${method} ${body.toString("utf8").slice(0, 150)}`);
            return;
          }
          const newSid = res.headers["mcp-session-id"];
          if (typeof newSid === "string" && newSid !== sid) opened.add(newSid);
          if (res.status >= 500) {
            report.wrongCodes++;
            sample(report, `${res.status} for ${body.toString("utf8").slice(0, 150)}: ${res.body.slice(0, 150)}`);
            return;
          }
          if (!valid || method !== "POST" || cut) return;
          const want = owed(body);
          if (!want.status.includes(res.status)) {
            report.wrongCodes++;
            sample(
              report,
              `status ${res.status} (want ${want.status}) for ${body.toString("utf8").slice(0, 150)}: ${res.body.slice(0, 150)}`,
            );
            return;
          }
          if (want.id === undefined && want.code === undefined) return;
          let msgs: any[];
          try {
            msgs = messages(res);
          } catch {
            report.wrongCodes++;
            sample(report, `unparsable reply body: ${res.body.slice(0, 150)}`);
            return;
          }
          const acked = msgs.some(
            (x) =>
              x?.method === "notifications/subscriptions/acknowledged" &&
              x.params?._meta?.["io.modelcontextprotocol/subscriptionId"] === want.id,
          );
          if (acked && want.code === undefined) return;
          const m = msgs.find(
            (x) => x && "id" in x && (want.id === undefined || x.id === want.id) && ("result" in x || "error" in x),
          );
          if (!m || (want.code !== undefined && m.error?.code !== want.code)) {
            report.wrongCodes++;
            sample(
              report,
              `reply ${JSON.stringify(msgs).slice(0, 200)} (want id ${JSON.stringify(want.id)} code ${want.code}) for ${body.toString("utf8").slice(0, 150)}`,
            );
          }
        }),
      );
      if (jobs.length >= 32) await Promise.all(jobs.splice(0));
    }
    await Promise.all(jobs);
    // Listen flood: valid 2026-07-28 listens POSTed into the main legacy session, each connection
    // dropped once acknowledged (send does that); none may outlive its connection.
    if (sid) {
      const headers = {
        "content-type": "application/json",
        accept: ACCEPT,
        "mcp-session-id": sid,
        "mcp-protocol-version": "2025-11-25",
      };
      const listen = (k: number) =>
        Buffer.from(
          JSON.stringify({
            jsonrpc: "2.0",
            id: `listen${n}-${k}`,
            method: "subscriptions/listen",
            params: { notifications: { toolsListChanged: true }, _meta: LISTEN_META },
          }),
        );
      await Promise.all(
        Array.from({ length: LISTENS_PER_BATCH }, (_, k) =>
          send(agent, target.url!, "POST", headers, listen(k), false),
        ),
      );
    }
    // Probe: a valid call on the main session.
    const probe = sid
      ? await send(
          agent,
          target.url!,
          "POST",
          {
            "content-type": "application/json",
            accept: ACCEPT,
            "mcp-session-id": sid,
            "mcp-protocol-version": "2025-11-25",
          },
          Buffer.from(
            `{"jsonrpc":"2.0","id":"probe${n}","method":"tools/call","params":{"name":"test_simple_text","arguments":{}}}`,
          ),
          false,
        )
      : "reset";
    if (
      typeof probe === "string" ||
      probe.status !== 200 ||
      !messages(probe).some((m) => m.id === `probe${n}` && m.result)
    ) {
      report.probeFailures++;
      sample(
        report,
        `probe failed: ${typeof probe === "string" ? probe : `${probe.status} ${probe.body.slice(0, 150)}`}`,
      );
      sid = await open();
    }
    // Task flood: a session asks for more day-long tasks than its quota. Past the quota it gets
    // -32603 naming the quota, and a fresh session still gets a task; both sessions are deleted
    // below, which releases their tasks (the heap check at the end would see them otherwise).
    const flooder = await open();
    const bystander = await open();
    if (flooder !== undefined && bystander !== undefined) {
      const taskCall = (session: string, i: number) => {
        const body = {
          jsonrpc: "2.0",
          id: `flood${n}-${i}`,
          method: "tools/call",
          params: { name: "slow_compute", arguments: { seconds: 3600 }, task: { ttl: 86_400_000 } },
        };
        return send(
          agent,
          target.url!,
          "POST",
          {
            "content-type": "application/json",
            accept: ACCEPT,
            "mcp-session-id": session,
            "mcp-protocol-version": "2025-11-25",
          },
          Buffer.from(JSON.stringify(body)),
          false,
        );
      };
      const replies = await Promise.all(Array.from({ length: TASK_QUOTA + 10 }, (_, i) => taskCall(flooder, i)));
      let created = 0;
      for (const res of replies) {
        const m =
          typeof res === "string"
            ? undefined
            : messages(res).find((x) => x && "id" in x && ("result" in x || "error" in x));
        if (m?.result?.task !== undefined) created++;
        else if (
          m?.error?.code !== -32603 ||
          !["maxTasksPerOwner", "maxRunningPerOwner"].includes(m.error.data?.limit)
        ) {
          report.wrongCodes++;
          sample(
            report,
            `task flood: ${typeof res === "string" ? res : `${res.status} ${res.body.slice(0, 150)}`} (want a task or -32603 naming a per-owner quota)`,
          );
        }
      }
      if (created > TASK_QUOTA) {
        report.wrongCodes++;
        sample(report, `task flood: one session got ${created} tasks, more than its quota of ${TASK_QUOTA}`);
      }
      const other = await taskCall(bystander, -1);
      if (typeof other === "string" || !messages(other).some((x) => x?.result?.task !== undefined)) {
        report.probeFailures++;
        sample(
          report,
          `task flood: another session got no task: ${typeof other === "string" ? other : `${other.status} ${other.body.slice(0, 150)}`}`,
        );
      }
    }
    // Close every session the fuzzer saw but the main one; none may be left beyond it.
    for (const s of opened) {
      if (s === sid) continue;
      await send(
        agent,
        target.url!,
        "DELETE",
        { "mcp-session-id": s, "mcp-protocol-version": "2025-11-25" },
        undefined,
        false,
      );
      opened.delete(s);
    }
    await waitFor(() => false, 50);
    const st: Stats | undefined = await target.stats();
    // Counted once each: a session nobody was told about stays open until its idle expiry.
    if (st && st.httpSessions - 1 > leakedSessions) {
      report.leaks += st.httpSessions - 1 - leakedSessions;
      sample(
        report,
        `${st.httpSessions - 1 - leakedSessions} sessions nobody was told about remain open after batch ending at message ${n}`,
      );
      leakedSessions = st.httpSessions - 1;
    }
    if (st && st.listens > leakedListens) {
      await waitFor(() => false, 500);
      const again = await target.stats();
      // Counted once each, as sessions are.
      if (again && again.listens > leakedListens) {
        report.leaks += again.listens - leakedListens;
        sample(
          report,
          `${again.listens} listens remain open after their connections were dropped (batch ending at message ${n})`,
        );
        leakedListens = again.listens;
      }
    }
    if (st && st.running + st.pending > 0) {
      await waitFor(() => false, 500);
      const again = await target.stats();
      if (again && again.running + again.pending > 0) {
        report.leaks += again.running + again.pending;
        sample(report, `left running ${again.running}, pending ${again.pending}`);
      }
    }
  }
  const end = await target.stats();
  report.rssEndMiB = mib(end?.rss ?? 0);
  report.heapEndMiB = mib(end?.heap ?? 0);
  report.crashes = Math.max(report.crashes, target.crashes);
  agent.destroy();
  await target.stop();
  report.seconds = Math.round((Date.now() - started) / 1000);
  return report;
}
