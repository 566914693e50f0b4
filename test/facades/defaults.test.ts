// Tool input defaults and every validation failure, end to end: the defaults fixture generated and
// compiled with tsc --strict (TS 7 and 5.9, its type contract included), served over the memory
// transport in both eras and over real Streamable HTTP, called with the typed client and raw JSON-RPC.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import fc from "fast-check";
import { createMemoryTransportPair, limits, McpError, ToolOutputError, type ProtocolBinding } from "@mcpgen/runtime";
import { createStreamableHttpServer } from "@mcpgen/runtime/http";
import { bindings, dual } from "../runtime/helpers/binding.js";
import { rawPeer } from "../runtime/helpers/peer.js";
import { root } from "../manifest/helpers.js";
import { buildFixture, type BuiltFixture } from "./build-fixture.js";

let fx: BuiltFixture;
let server: any;
let mod: { server: any; client: any; handlers: any };
const seen: any[] = [];
const errors: Error[] = [];

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

async function connect(
  options: { protocolVersion?: string; bindings?: ProtocolBinding[]; handlers?: object } = {},
): Promise<any> {
  const [ct, st] = createMemoryTransportPair();
  await server.connect(st);
  return mod.client.createDefaultsClient(ct, {
    bindings: options.bindings ?? bindings,
    clientInfo: { name: "defaults", version: "1" },
    timeout: 10_000,
    ...(options.protocolVersion ? { protocolVersion: options.protocolVersion } : {}),
    ...(options.handlers ? { handlers: options.handlers } : {}),
  });
}

/** Every revision, each with the bindings a client speaking it is given. */
const ERAS: { revision: string; bindings: ProtocolBinding[]; protocolVersion?: string }[] = [
  { revision: "2026-07-28", bindings: dual },
  { revision: "2025-11-25", bindings },
  { revision: "2025-06-18", bindings, protocolVersion: "2025-06-18" },
  { revision: "2024-11-05", bindings, protocolVersion: "2024-11-05" },
];

/** What the forecast handler gets for `{ city }` alone. */
const FILLED = {
  city: "Lyon",
  days: 3,
  units: "metric",
  options: { hourly: false, lang: "en" },
  tags: ["daily"],
  source: "model",
};

test.before(async () => {
  fx = await buildFixture("defaults");
  mod = {
    server: await fx.load("mcp/server.js"),
    client: await fx.load("mcp/client.js"),
    handlers: await fx.load("handlers.js"),
  };
  server = mod.server.createDefaultsServer(mod.handlers.createHandlers(seen), {
    bindings: dual,
    onerror: (e: Error) => errors.push(e),
  });
});
test.after(async () => {
  await server?.close();
  fx?.cleanup();
});

test("the fixture and its type contract compile under tsc --strict, TypeScript 7 and 5.9", () => {
  assert.is(fx.tsc.code, 0, fx.tsc.output);
  const ts5 = spawnSync(
    process.execPath,
    [join(root, "node_modules", "typescript-5", "bin", "tsc"), "-p", join(fx.dir, "tsconfig.json"), "--noEmit"],
    { encoding: "utf8", timeout: 120_000 },
  );
  assert.is(ts5.status, 0, `${ts5.stdout}${ts5.stderr}`);
});

test("typed client, every revision: the handler gets the defaults filled in, nested ones where the parent exists; the caller's arguments stay as they were", async () => {
  for (const era of ERAS) {
    const c = await connect(era);
    try {
      assert.is(c.protocolVersion, era.revision);
      const args = {
        city: "Paris",
        days: 5,
        options: { hourly: true },
        location: { zip: "75001" },
        stops: [{ name: "a" }, { name: "b", minutes: 5 }],
        mode: {},
      };
      const sent = JSON.parse(JSON.stringify(args));
      seen.length = 0;
      const r = await c.tools.forecast(args);
      const expected = {
        city: "Paris",
        days: 5,
        units: "metric",
        options: { hourly: true, lang: "en" },
        location: { zip: "75001", country: "FR" },
        stops: [
          { name: "a", minutes: 10 },
          { name: "b", minutes: 5 },
        ],
        tags: ["daily"],
        mode: {},
        source: "model",
      };
      assert.equal(seen[0], expected, era.revision);
      assert.equal(r.structured.seen, expected, `${era.revision}: what the handler got travels back`);
      assert.equal(args, sent, `${era.revision}: the caller's object is not written`);
      // in process the arguments arrive by reference: what was filled in is the handler's own copy
      assert.ok(seen[0] !== args && seen[0].options !== args.options && seen[0].stops[0] !== args.stops[0]);
      assert.equal(args.mode, {}, "no default is filled inside an anyOf member");

      seen.length = 0;
      await c.tools.forecast({ city: "Lyon" });
      await c.tools.forecast({ city: "Lyon" });
      assert.equal(
        seen[0],
        FILLED,
        `${era.revision}: an absent parent stays absent (location, stops); a defaulted one is filled in`,
      );
      assert.ok(
        seen[0].tags !== seen[1].tags && seen[0].options !== seen[1].options,
        "a default object or array is fresh per call",
      );
    } finally {
      await c.close();
    }
  }
});

test("a tool without defaults gets the arguments as sent (no copy)", async () => {
  const c = await connect();
  try {
    const args = { a: "x", b: 1 };
    seen.length = 0;
    await c.tools.strict(args);
    assert.is(seen[0], args);
  } finally {
    await c.close();
  }
});

test("2026-07-28 input rounds: the retry of a tool with defaults is accepted and filled in again", async () => {
  const c = await connect({
    bindings: dual,
    handlers: { elicitation: () => ({ action: "accept", content: { name: "Ada" } }) },
  });
  try {
    assert.is(c.protocolVersion, "2026-07-28");
    seen.length = 0;
    const r = await c.tools.greet();
    assert.equal(r.content, [{ type: "text", text: "hello Ada" }]);
    assert.equal(seen, [{ greeting: "hello" }, { greeting: "hello" }], "first round, then the retry with the answer");
    assert.equal((await c.tools.greet({ greeting: "hi" })).content, [{ type: "text", text: "hi Ada" }]);
  } finally {
    await c.close();
  }
});

test("raw JSON-RPC over the memory transport, both eras: the handler gets the defaults", async () => {
  const [ct, st] = createMemoryTransportPair();
  await server.connect(st);
  const peer = rawPeer(ct);
  try {
    await peer.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    assert.is((await peer.next(2000)).result.protocolVersion, "2025-11-25");
    await peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await peer.send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "forecast", arguments: { city: "Lyon" } },
    });
    assert.equal((await peer.next(2000)).result.structuredContent, { seen: FILLED });
  } finally {
    await ct.close();
  }
  const [mt, ms] = createMemoryTransportPair();
  await server.connect(ms);
  const modern = rawPeer(mt);
  try {
    await modern.send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "forecast", arguments: { city: "Lyon" }, _meta: META },
    });
    assert.equal((await modern.next(2000)).result.structuredContent, { seen: FILLED });
  } finally {
    await mt.close();
  }
});

test("invalid arguments with 3 failures: all 3 with their pointers, as an isError result (2025-11-25 on) and in -32602's data before", async () => {
  const bad = { b: -1, c: "z" };
  const lines = [
    "/ must have required property 'a'",
    "/b must be >= 0",
    '/c must be equal to one of the allowed values: ["x","y"]',
  ];
  for (const era of ERAS) {
    const c = await connect(era);
    try {
      if (era.revision >= "2025-11-25") {
        const r = await c.callTool("strict", bad);
        assert.is(r.isError, true);
        assert.is(r.content[0].text, `Invalid arguments for tool "strict": ${lines.join("; ")}`, era.revision);
      } else {
        const e = await c.callTool("strict", bad).catch((x: unknown) => x);
        assert.instance(e, McpError);
        assert.is(e.code, -32602);
        assert.is(e.message, `Invalid arguments for tool "strict": ${lines.join("; ")}`);
        assert.equal(
          e.data.errors.map((x: { pointer: string; keyword: string }) => [x.pointer, x.keyword]),
          [
            ["/params/arguments", "required"],
            ["/params/arguments/b", "minimum"],
            ["/params/arguments/c", "enum"],
          ],
          era.revision,
        );
        assert.is(e.data.omitted, undefined);
      }
    } finally {
      await c.close();
    }
  }
});

test(`invalid arguments with 30 failures: the first ${limits.MAX_REPORTED_ISSUES} listed, the other 10 counted`, async () => {
  const bad = { a: "x", list: Array.from({ length: 30 }, (_, i) => `n${i}`) };
  const listed = Array.from({ length: 20 }, (_, i) => `/list/${i} must be integer`).join("; ");
  const c = await connect();
  const old = await connect({ protocolVersion: "2025-06-18" });
  try {
    const r = await c.callTool("strict", bad);
    assert.is(r.content[0].text, `Invalid arguments for tool "strict": ${listed}; and 10 more failures not listed`);
    const e = await old.callTool("strict", bad).catch((x: unknown) => x);
    assert.is(e.code, -32602);
    assert.is(e.data.errors.length, 20);
    assert.is(e.data.errors[19].pointer, "/params/arguments/list/19");
    assert.is(e.data.omitted, 10);
    assert.is(e.data.atLeast, undefined);
  } finally {
    await c.close();
    await old.close();
  }
});

test(`a hostile value: collecting stops past ${limits.MAX_COLLECTED_ISSUES} failures and the answer says "at least"; long keys are cut in the report`, async () => {
  const c = await connect({ protocolVersion: "2025-06-18" });
  try {
    const started = Date.now();
    const e = await c
      .callTool("strict", { a: "x", list: Array.from({ length: 200_000 }, () => "x") })
      .catch((x: unknown) => x);
    assert.ok(Date.now() - started < 5000, "answered at once");
    assert.is(e.code, -32602);
    assert.is(e.data.errors.length, 20);
    assert.equal([e.data.omitted, e.data.atLeast], [limits.MAX_COLLECTED_ISSUES + 1 - 20, true]);
    assert.match(e.message, /; and at least 981 more failures not listed$/);
    const key = "k".repeat(100_000);
    const long = await c.callTool("strict", { a: "x", labels: { [key]: 1 }, [key]: 2 }).catch((x: unknown) => x);
    assert.ok(long.message.length < 600, `message of ${long.message.length} characters`);
    assert.equal(
      long.data.errors.map((x: { pointer: string; keyword: string }) => [x.pointer.length, x.keyword]),
      [
        ["/params/arguments".length, "additionalProperties"],
        ["/params/arguments".length + limits.MAX_ISSUE_POINTER_CHARS, "type"],
      ],
    );
  } finally {
    await c.close();
  }
});

test("property: any arguments get either the handler (defaults filled, sent object untouched) or at most 20 failures whose pointers lie inside what was sent", async () => {
  const c = await connect();
  const resolve = (value: unknown, pointer: string): boolean => {
    let cur = value;
    for (const raw of pointer.split("/").slice(1)) {
      const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      if (cur === null || typeof cur !== "object" || !Object.hasOwn(cur, token)) return false;
      cur = (cur as Record<string, unknown>)[token];
    }
    return true;
  };
  // each property mostly valid (so calls reach the handler), sometimes any JSON scalar
  const value = fc.oneof(fc.string(), fc.integer({ min: -3, max: 9 }), fc.boolean(), fc.constant(null));
  const mostly = <T>(valid: fc.Arbitrary<T>) =>
    fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: value });
  const args = fc.record(
    {
      city: mostly(fc.string({ minLength: 1 })),
      days: mostly(fc.integer({ min: 1, max: 7 })),
      units: mostly(fc.constantFrom("metric", "imperial")),
      options: mostly(fc.record({ hourly: mostly(fc.boolean()), lang: mostly(fc.string()) }, { requiredKeys: [] })),
      location: mostly(fc.record({ country: mostly(fc.string()), zip: mostly(fc.string()) }, { requiredKeys: [] })),
      stops: mostly(
        fc.array(fc.record({ name: mostly(fc.string()), minutes: mostly(fc.integer()) }, { requiredKeys: ["name"] }), {
          maxLength: 5,
        }),
      ),
      tags: mostly(fc.array(mostly(fc.string()), { maxLength: 30 })),
      source: mostly(fc.string()),
    },
    { requiredKeys: ["city"] },
  );
  let handled = 0;
  let refused = 0;
  try {
    await fc.assert(
      fc.asyncProperty(args, async (a) => {
        // fast-check makes some records without a prototype: compared as JSON
        const sent = JSON.stringify(a);
        seen.length = 0;
        const r = await c.callTool("forecast", a);
        assert.is(JSON.stringify(a), sent);
        if (r.isError !== true) {
          assert.is(seen.length, 1);
          for (const [k, v] of Object.entries(FILLED)) if (!Object.hasOwn(a, k)) assert.equal(seen[0][k], v);
          for (const stop of seen[0].stops ?? []) assert.type(stop.minutes, "number");
          handled++;
          return;
        }
        refused++;
        assert.is(seen.length, 0);
        const text: string = r.content[0].text;
        assert.ok(text.startsWith('Invalid arguments for tool "forecast": '), text);
        const listed = text
          .slice('Invalid arguments for tool "forecast": '.length)
          .replace(/; and \d+ more failures? not listed$/, "")
          .split("; ");
        assert.ok(listed.length >= 1 && listed.length <= limits.MAX_REPORTED_ISSUES);
        for (const line of listed) {
          const pointer = line.slice(0, line.indexOf(" "));
          assert.ok(pointer === "/" || resolve(a, pointer), `${pointer} is not inside ${JSON.stringify(a)}`);
        }
      }),
      { numRuns: 300, seed: 20261127 },
    );
    assert.ok(handled > 20 && refused > 20, `both outcomes exercised (${handled} handled, ${refused} refused)`);
  } finally {
    await c.close();
  }
});

test("client: a structured result with 3 failures rejects with all 3; with 30, the first 20 and the count", async () => {
  const [ct, st] = createMemoryTransportPair();
  await server.connect(st);
  const c = await mod.client.createDefaultsClient(ct, {
    bindings,
    clientInfo: { name: "lied-to", version: "1" },
    timeout: 10_000,
  });
  // A lying server: its tools/call results are replaced on their way to the client.
  let lie: object | undefined;
  const deliver = ct.onmessage!;
  ct.onmessage = (m: any, context) =>
    deliver(lie !== undefined && Array.isArray(m.result?.content) ? { ...m, result: lie } : m, context);
  try {
    lie = { content: [], structuredContent: { n: "1", s: 2, list: ["a"] } };
    const three = await c.tools.shaped().catch((x: unknown) => x);
    assert.instance(three, ToolOutputError);
    assert.equal(
      three.issues.map((i: { instancePath: string }) => i.instancePath),
      ["/n", "/s", "/list/0"],
    );
    assert.is(three.omitted, 0);
    assert.is(
      three.message,
      'Tool "shaped": structured result does not match its outputSchema: /n must be integer; /s must be string; /list/0 must be integer',
    );
    lie = { content: [], structuredContent: { n: 1, s: "s", list: Array.from({ length: 30 }, () => "x") } };
    const thirty = await c.tools.shaped().catch((x: unknown) => x);
    assert.is(thirty.issues.length, 20);
    assert.is(thirty.omitted, 10);
    assert.match(thirty.message, /\/list\/19 must be integer; and 10 more failures not listed$/);
    lie = undefined;
    assert.equal((await c.tools.shaped()).structured, { n: 1, s: "one" });
  } finally {
    await c.close();
  }
});

test("real Streamable HTTP, raw POSTs: defaults filled in (2026-07-28), every failure in -32602 (2025-06-18 session)", async () => {
  const http = createStreamableHttpServer({ onsession: (t) => server.connect(t).then(() => {}) });
  const url = await http.listen();
  const post = (body: object, headers: Record<string, string>) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    });
  try {
    const modern = await post(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "forecast", arguments: { city: "Lyon" }, _meta: META },
      },
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "forecast" },
    );
    assert.is(modern.status, 200);
    assert.equal(((await modern.json()) as any).result.structuredContent, { seen: FILLED });

    const init = await post(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      },
      {},
    );
    const session = init.headers.get("mcp-session-id")!;
    await init.text();
    const legacy = { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" };
    await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, legacy)).text();
    const refused = await post(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "strict", arguments: { b: -1, c: "z" } } },
      legacy,
    );
    const body = (await refused.json()) as any;
    assert.is(body.error.code, -32602);
    assert.equal(
      body.error.data.errors.map((x: { pointer: string }) => x.pointer),
      ["/params/arguments", "/params/arguments/b", "/params/arguments/c"],
    );
    const filled = await post(
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "forecast", arguments: { city: "Lyon" } } },
      legacy,
    );
    assert.equal(((await filled.json()) as any).result.structuredContent, { seen: FILLED });
  } finally {
    await http.close();
  }
});

test("nothing was reported as a server problem", () => {
  assert.equal(
    errors.map((e) => e.message),
    [],
  );
});

test.run();
