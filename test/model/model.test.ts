import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { McpgenError } from "../../generator/errors.js";
import { loadSchema, type LoadedSchema } from "../../generator/load/index.js";
import { buildModel, type ProtocolModel } from "../../generator/model/index.js";
import { repoRoot, resolvePointer, revisions, tempDir } from "../helpers.js";

const models = new Map<string, ProtocolModel>(revisions.map((r) => [r, buildModel(loadSchema(r))]));
const model = (r: string) => models.get(r)!;

function count(m: ProtocolModel, kind: "request" | "notification", side: "client" | "server"): number {
  return m.methods.filter((x) => x.kind === kind && (x.from === side || x.from === "both")).length;
}

// The method sets of each revision's schema
// (https://modelcontextprotocol.io/specification/<revision>/schema): per revision, client requests,
// server requests, client notifications, server notifications.
const expectedCounts: Record<string, [number, number, number, number]> = {
  "2024-11-05": [13, 3, 4, 7],
  "2025-03-26": [13, 3, 4, 7],
  "2025-06-18": [13, 4, 4, 7],
  "2025-11-25": [17, 8, 5, 9],
  "2026-07-28": [10, 0, 1, 8],
};

test("method counts per direction match each revision's schema reference", () => {
  for (const r of revisions) {
    const m = model(r);
    const got = [
      count(m, "request", "client"),
      count(m, "request", "server"),
      count(m, "notification", "client"),
      count(m, "notification", "server"),
    ];
    assert.equal(got, expectedCounts[r], r);
  }
});

test("era, dialect, batching per revision", () => {
  for (const r of revisions) {
    const m = model(r);
    assert.is(m.revision, r);
    assert.is(m.era, r === "2026-07-28" ? "modern" : "legacy");
    assert.is(m.dialect, r >= "2025-11-25" ? "2020-12" : "draft-07");
    assert.is(m.defsKey, r >= "2025-11-25" ? "$defs" : "definitions");
    assert.is(m.batching, r === "2025-03-26");
    assert.is(m.source.display, r);
    assert.match(m.source.sha256, /^[0-9a-f]{64}$/);
  }
});

test("legacy result types follow XRequest -> XResult except the EmptyResult methods", () => {
  const empty = ["logging/setLevel", "ping", "resources/subscribe", "resources/unsubscribe"];
  for (const r of revisions.slice(0, 4)) {
    for (const x of model(r).methods.filter((x) => x.kind === "request")) {
      const want = empty.includes(x.method) ? "EmptyResult" : x.messageType.replace(/Request$/, "Result");
      assert.is(x.resultType, want, `${r} ${x.method}`);
    }
    assert.equal(
      model(r)
        .methods.filter((x) => x.resultType === "EmptyResult")
        .map((x) => x.method),
      empty,
      r,
    );
  }
});

test("2026-07-28 removals, additions, and MRTR input requests are not methods", () => {
  const names = model("2026-07-28").methods.map((x) => x.method);
  for (const gone of [
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
    "notifications/initialized",
    "notifications/roots/list_changed",
    "notifications/elicitation/complete",
    "tasks/get",
    "tasks/result",
    "tasks/list",
    "tasks/cancel",
    "notifications/tasks/status",
    "sampling/createMessage",
    "elicitation/create",
    "roots/list",
  ])
    assert.not.ok(names.includes(gone), `${gone} must not be a 2026-07-28 method`);
  for (const added of ["server/discover", "subscriptions/listen", "notifications/subscriptions/acknowledged"]) {
    assert.ok(names.includes(added), added);
  }
  // The collapsed ClientNotification union is a copy of CancelledNotification: one method, both directions.
  const cancelled = model("2026-07-28").methods.filter((x) => x.method === "notifications/cancelled");
  assert.is(cancelled.length, 1);
  assert.is(cancelled[0]!.messageType, "CancelledNotification");
  assert.is(cancelled[0]!.from, "both");
  assert.is(model("2026-07-28").methods.find((x) => x.method === "notifications/progress")!.from, "server");
});

test("2026-07-28 results come from the …ResultResponse definitions", () => {
  const m = model("2026-07-28");
  for (const x of m.methods.filter((x) => x.kind === "request")) {
    assert.is(
      x.resultPointer,
      `/$defs/${x.messageType.replace(/Request$/, "")}ResultResponse/properties/result`,
      x.method,
    );
  }
  const call = m.methods.find((x) => x.method === "tools/call")!;
  assert.is(call.resultType, "CallToolResult");
  const refs = (resolvePointer(m.document, call.resultPointer!) as { anyOf: { $ref: string }[] }).anyOf.map(
    (a) => a.$ref,
  );
  assert.equal(refs.sort(), ["#/$defs/CallToolResult", "#/$defs/InputRequiredResult"]);
});

test("capability gates", () => {
  const cap = (r: string, method: string) => model(r).methods.find((x) => x.method === method)!.capability;
  assert.is(cap("2024-11-05", "completion/complete"), null);
  for (const r of revisions.slice(1)) assert.is(cap(r, "completion/complete"), "completions", r);
  assert.is(cap("2025-06-18", "resources/subscribe"), "resources.subscribe");
  assert.is(cap("2025-06-18", "elicitation/create"), "elicitation");
  assert.is(cap("2025-11-25", "tasks/list"), "tasks.list");
  assert.is(cap("2025-11-25", "tasks/cancel"), "tasks.cancel");
  assert.is(cap("2026-07-28", "server/discover"), null);
  assert.is(cap("2026-07-28", "tools/call"), "tools");
  for (const r of revisions.slice(0, 4)) {
    assert.is(cap(r, "initialize"), null);
    assert.is(cap(r, "ping"), null);
  }
});

test("2025-11-25 tasks methods go both ways", () => {
  for (const method of ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel", "notifications/tasks/status"]) {
    assert.is(model("2025-11-25").methods.find((x) => x.method === method)?.from, "both", method);
  }
});

test("params and result pointers resolve; named params are bare $refs; everything sorted", () => {
  for (const r of revisions) {
    const m = model(r);
    const names = m.methods.map((x) => x.method);
    assert.equal(names, [...names].sort(), `${r} methods sorted`);
    const types = m.types.map((t) => t.name);
    assert.equal(types, [...types].sort(), `${r} types sorted`);
    assert.is(m.types.length, Object.keys(m.document[m.defsKey] as object).length);
    for (const x of m.methods) {
      assert.ok(
        x.paramsPointer === null || resolvePointer(m.document, x.paramsPointer) !== undefined,
        `${r} ${x.method} params`,
      );
      assert.ok(x.paramsPointer?.startsWith(`/${m.defsKey}/${x.messageType}/properties/params`) ?? true);
      if (x.paramsType) {
        const target = resolvePointer(m.document, x.paramsPointer!) as { $ref: string };
        assert.is(target.$ref, `#/${m.defsKey}/${x.paramsType}`);
      }
      if (x.kind === "request")
        assert.ok(resolvePointer(m.document, x.resultPointer!) !== undefined, `${r} ${x.method} result`);
      else assert.is(x.resultPointer, null);
    }
  }
  const call = model("2024-11-05").methods.find((x) => x.method === "tools/call")!;
  assert.is(call.paramsPointer, "/definitions/CallToolRequest/properties/params");
  assert.is(call.paramsType, null);
  assert.ok(call.paramsRequired);
  assert.is(model("2025-11-25").methods.find((x) => x.method === "tools/call")!.paramsType, "CallToolRequestParams");
  assert.is(model("2025-11-25").methods.find((x) => x.method === "ping")!.paramsRequired, false);
});

test("descriptions are carried, schema document untouched", () => {
  const m = model("2025-06-18");
  assert.match(m.types.find((t) => t.name === "CallToolRequest")!.description ?? "", /tool/i);
  const raw = readFileSync(join(repoRoot, "schema/2025-06-18/schema.json"), "utf8");
  assert.equal(m.document, JSON.parse(raw));
  const defs = m.document[m.defsKey] as Record<string, { properties: Record<string, unknown> }>;
  assert.ok(Object.isFrozen(m.document) && Object.isFrozen(defs.CallToolRequest!.properties));
  assert.throws(() => {
    defs.CallToolRequest!.properties.extra = {};
  }, TypeError);
});

// ---- overlay vs schema disagreement (a mutated copy of a bundled schema keeps its overlay)

function mutated(rev: string, edit: (defs: Record<string, any>) => void): LoadedSchema {
  const loaded = loadSchema(rev);
  const document = structuredClone(loaded.document);
  edit(document[loaded.defsKey] as Record<string, any>);
  return { ...loaded, document };
}

function buildError(loaded: LoadedSchema): string {
  try {
    buildModel(loaded);
  } catch (e) {
    assert.instance(e, McpgenError);
    return (e as Error).message;
  }
  assert.unreachable("build should have failed");
  return "";
}

test("a method the schema removes fails the build naming it", () => {
  const msg = buildError(
    mutated("2025-06-18", (d) => {
      d.ClientRequest.anyOf = d.ClientRequest.anyOf.filter(
        (m: { $ref: string }) => !m.$ref.endsWith("/SetLevelRequest"),
      );
    }),
  );
  assert.match(
    msg,
    /method "logging\/setLevel" \(SetLevelRequest\) is in schema\/methods\.2025-06-18\.json but not in the schema/,
  );
});

test("a method the schema adds fails the build naming it", () => {
  const msg = buildError(
    mutated("2025-11-25", (d) => {
      d.FrobRequest = {
        type: "object",
        properties: { method: { const: "frob/run", type: "string" } },
        required: ["method"],
      };
      d.ClientRequest.anyOf.push({ $ref: "#/$defs/FrobRequest" });
    }),
  );
  assert.match(
    msg,
    /method "frob\/run" \(FrobRequest, in ClientRequest\) is in the schema but not in schema\/methods\.2025-11-25\.json/,
  );
});

test("a method the schema renames fails the build naming both names", () => {
  const msg = buildError(
    mutated("2026-07-28", (d) => {
      d.CompleteRequest.properties.method.const = "completion/suggest";
    }),
  );
  assert.match(msg, /"completion\/suggest"/);
  assert.match(msg, /"completion\/complete"/);
});

test("a direction change and an MRTR input request change are reported", () => {
  const dir = buildError(
    mutated("2024-11-05", (d) => {
      d.ServerRequest.anyOf = d.ServerRequest.anyOf.filter((m: { $ref: string }) => !m.$ref.endsWith("/PingRequest"));
    }),
  );
  assert.match(
    dir,
    /method "ping": schema\/methods\.2024-11-05\.json says from "both", the schema's unions say "client"/,
  );
  const mrtr = buildError(
    mutated("2026-07-28", (d) => {
      d.InputRequest.anyOf = d.InputRequest.anyOf.filter(
        (m: { $ref: string }) => !m.$ref.endsWith("/ListRootsRequest"),
      );
    }),
  );
  assert.match(
    mrtr,
    /input request "roots\/list" is in schema\/methods\.2026-07-28\.json but not in the schema's InputRequest union/,
  );
});

test("a result type the schema does not allow is reported", () => {
  const msg = buildError(
    mutated("2026-07-28", (d) => {
      d.ListToolsResultResponse.properties.result = { $ref: "#/$defs/ListPromptsResult" };
    }),
  );
  assert.match(msg, /method "tools\/list": ListToolsResultResponse allows ListPromptsResult, not ListToolsResult/);
});

test("a union member without a method name is reported with its pointer", () => {
  const msg = buildError(
    mutated("2025-11-25", (d) => {
      delete d.PingRequest.properties.method;
    }),
  );
  assert.match(
    msg,
    /at \/\$defs\/PingRequest\/properties\/method: ClientRequest member PingRequest has no method name \(expected a `const` string\)/,
  );
});

// ---- a schema that is not bundled (a future revision)

test("an unbundled future revision is modelled with warnings for what was inferred", () => {
  const { dir, cleanup } = tempDir();
  try {
    const doc = JSON.parse(readFileSync(join(repoRoot, "schema/2026-07-28/schema.json"), "utf8"));
    const defs = doc.$defs;
    defs.FrobRequest = {
      type: "object",
      properties: { method: { const: "frob/run", type: "string" } },
      required: ["method"],
    };
    defs.FrobResult = { type: "object" };
    defs.ClientRequest.anyOf.push({ $ref: "#/$defs/FrobRequest" });
    mkdirSync(join(dir, "2026-12-01"));
    const file = join(dir, "2026-12-01", "schema.json");
    writeFileSync(file, JSON.stringify(doc));
    const warnings: string[] = [];
    const m = buildModel(loadSchema(file, { cwd: dir }), { warn: (w) => warnings.push(w) });
    assert.is(m.revision, "2026-12-01");
    assert.is(m.era, "modern");
    assert.is(m.source.display, "2026-12-01/schema.json");
    const frob = m.methods.find((x) => x.method === "frob/run")!;
    assert.equal([frob.from, frob.resultType, frob.capability], ["client", "FrobResult", null]);
    assert.is(m.methods.find((x) => x.method === "tools/call")!.capability, "tools");
    const text = warnings.join("\n");
    assert.match(text, /revision 2026-12-01 is not bundled/);
    assert.match(text, /method "frob\/run" \(FrobRequest\) is in no reviewed overlay; assumed ungated/);
    assert.match(text, /result type FrobResult inferred from the name of FrobRequest/);
    assert.match(text, /taken from schema\/methods\.2026-07-28\.json for: completion\/complete/);
  } finally {
    cleanup();
  }
});

test("a copy of a bundled schema at another path uses the reviewed overlay, no warnings", () => {
  const { dir, cleanup } = tempDir();
  try {
    const file = join(dir, "schema.json");
    writeFileSync(file, readFileSync(join(repoRoot, "schema/2025-03-26/schema.json")));
    const warnings: string[] = [];
    const m = buildModel(loadSchema(file, { cwd: dir }), { warn: (w) => warnings.push(w) });
    assert.is(m.revision, "2025-03-26");
    assert.is(m.source.display, "schema.json");
    assert.equal(warnings, []);
  } finally {
    cleanup();
  }
});

test("an unbundled schema whose revision cannot be told is an error", () => {
  const { dir, cleanup } = tempDir();
  try {
    const doc = JSON.parse(readFileSync(join(repoRoot, "schema/2026-07-28/schema.json"), "utf8"));
    doc.$defs.Extra = { type: "string" };
    writeFileSync(join(dir, "schema.json"), JSON.stringify(doc));
    assert.throws(
      () => buildModel(loadSchema(join(dir, "schema.json"), { cwd: dir })),
      /cannot tell which protocol revision/,
    );
    const m = buildModel(loadSchema(join(dir, "schema.json"), { cwd: dir, revision: "2027-01-01" }));
    assert.is(m.revision, "2027-01-01");
  } finally {
    cleanup();
  }
});

test("model is deterministic", () => {
  const a = JSON.stringify(buildModel(loadSchema("2025-11-25")));
  const b = JSON.stringify(buildModel(loadSchema("2025-11-25")));
  assert.is(a, b);
});

test.run();
