// The generated weather example server as a real child process over stdio, driven by the official
// SDK clients (v1 1.32 and v2 2.4): structured output checked against the listed outputSchema,
// progress through the SDK's onprogress, and cancellation through the SDK's AbortSignal with the
// server still serving afterwards. Roots are not covered here: no example handler requests them.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { Ajv } from "ajv";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { root } from "./helpers/stdio-peer.js";

type Progress = { progress: number; total?: number; message?: string };
type CallOptions = { onprogress?: (p: Progress) => void; signal?: AbortSignal; timeout?: number };

/** What these tests use from either SDK generation (callTool's signature differs between them). */
interface Driver {
  connect(): Promise<void>;
  close(): Promise<void>;
  listTools(): Promise<{ tools: { name: string; outputSchema?: object }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }, options?: CallOptions): Promise<any>;
  /** The child's stderr so far (both SDKs expose it as a stream with stderr: "pipe"). */
  stderr(): string;
}

const serverArgs = {
  command: process.execPath,
  args: [root("dist/examples/weather/src/server.js")],
  stderr: "pipe" as const,
};
const clientInfo = { name: "sdk", version: "1.0.0" };

/**
 * Both SDKs dispatch notifications a microtask late but settle responses synchronously, so when
 * a progress notification and its response arrive in one stdout chunk (our server writes them
 * back to back) the SDK drops the progress: its handler is already gone. That is the SDK's
 * ordering, not the wire's (the server sends progress first). Handing the SDK one message per
 * macrotask, in order, lets its notification dispatch run before the next message; the transport
 * and child process stay the SDK's own.
 */
function deliverOnePerTask(transport: { onmessage?: ((...args: any[]) => void) | undefined }): void {
  const deliver = transport.onmessage!;
  let queue = Promise.resolve();
  transport.onmessage = (...args: any[]) => {
    queue = queue.then(
      () => new Promise<void>((resolve) => setImmediate(() => (deliver.apply(transport, args), resolve()))),
    );
  };
}

function drive(transport: StdioV1 | StdioV2, client: ClientV1 | ClientV2, call: Driver["callTool"]): Driver {
  let err = "";
  return {
    connect: async () => {
      transport.stderr!.on("data", (d: Buffer) => void (err = (err + d.toString("utf8")).slice(-4000)));
      await client.connect(transport as any);
      deliverOnePerTask(transport);
    },
    close: () => client.close(),
    listTools: () => client.listTools() as Promise<any>,
    callTool: call,
    stderr: () => err,
  };
}

const drivers: Record<string, () => Driver> = {
  v1: () => {
    const client = new ClientV1(clientInfo);
    return drive(new StdioV1(serverArgs), client, (params, options) => client.callTool(params, undefined, options));
  },
  v2: () => {
    const client = new ClientV2(clientInfo);
    return drive(new StdioV2(serverArgs), client, (params, options) => client.callTool(params, options));
  },
};

const TIMEOUT = 5000;
const forecastArgs = (days: number) => ({ location: { city: "Oslo" }, days, units: "metric", hourly: true });

for (const [sdk, make] of Object.entries(drivers)) {
  const test = suite(`weather example over stdio, SDK ${sdk} client`);
  let d: Driver;

  test.before(async () => {
    d = make();
    await d.connect();
  });
  test.after(async () => {
    await d?.close();
  });

  test("structured output: structuredContent matches the handler's data and its listed outputSchema", async () => {
    // Listing first also makes both SDKs validate structuredContent against the schema on call.
    const tool = (await d.listTools()).tools.find((t) => t.name === "get_forecast");
    assert.ok(tool?.outputSchema, "get_forecast lists an outputSchema");
    const r = await d.callTool({ name: "get_forecast", arguments: forecastArgs(2) }, { timeout: TIMEOUT });
    assert.not.ok(r.isError, JSON.stringify(r));
    const sc = r.structuredContent;
    assert.is(sc.city, "Oslo");
    assert.is(sc.units, "metric");
    assert.equal(
      sc.days.map((x: any) => x.date),
      ["2026-06-01", "2026-06-02"],
    );
    assert.equal(sc.days[0].hours[0], { hour: 6, temperature: 8, wind: { speed: 3, direction: "NW" } });
    const validate = new Ajv({ strict: false, formats: { date: /^\d{4}-\d{2}-\d{2}$/ } }).compile(tool.outputSchema);
    assert.ok(validate(sc), JSON.stringify(validate.errors));
    // The text content mirrors the structured result, for clients that ignore structuredContent.
    const text = r.content.find((c: any) => c.type === "text");
    assert.equal(JSON.parse(text.text), sc);
  });

  test("progress notifications arrive through the SDK's onprogress, one per day", async () => {
    const seen: Progress[] = [];
    const r = await d.callTool(
      { name: "get_forecast", arguments: forecastArgs(4) },
      { timeout: TIMEOUT, onprogress: (p) => void seen.push(p) },
    );
    assert.is(r.structuredContent.days.length, 4);
    assert.equal(
      seen.map((p) => [p.progress, p.total, p.message]),
      [1, 2, 3, 4].map((n) => [n, 4, `day ${n}`]),
    );
  });

  test("cancellation: aborting the SDK's signal rejects the call, and the server keeps serving", async () => {
    const ac = new AbortController();
    let progressBeforeAbort = 0;
    const call = d.callTool(
      { name: "get_forecast", arguments: forecastArgs(7) },
      // Abort once the server has demonstrably started the call (its first progress report).
      {
        timeout: TIMEOUT,
        signal: ac.signal,
        onprogress: () => void (progressBeforeAbort++ === 0 && ac.abort(new Error("user cancelled"))),
      },
    );
    const e = await call.then(
      () => undefined,
      (x: unknown) => x,
    );
    assert.instance(e, Error, "the SDK rejects the aborted call");
    assert.match(String(e), /cancel|abort/i);
    assert.is(progressBeforeAbort >= 1, true);
    const after = await d.callTool({ name: "search_stations", arguments: { name: "oslo" } }, { timeout: TIMEOUT });
    assert.equal(after.structuredContent, {
      stations: [{ id: "NO-OSL-01", name: "Oslo Blindern", elevation: 94, sensors: ["temperature", "pressure"] }],
    });
    const again = await d.callTool({ name: "get_forecast", arguments: forecastArgs(1) }, { timeout: TIMEOUT });
    assert.is(again.structuredContent.days.length, 1);
    assert.not.match(d.stderr(), /weather: /, "the server reported no error while handling the cancellation");
  });

  test.run();
}
