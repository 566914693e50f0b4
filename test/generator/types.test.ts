import { test } from "uvu";
import * as assert from "uvu/assert";
import { compile } from "json-schema-to-typescript";
import { emitTypes, TypesEmitError } from "../../generator/emit/protocol/types.js";
import { bundledRevisions } from "../../generator/load/index.js";
import { compileSync } from "../../generator/emit/protocol/types/jsts.js";
import { MAP_NAMES } from "../../generator/emit/protocol/types/method-maps.js";
import { normaliseSchema, repairLinks } from "../../generator/emit/protocol/types/normalise.js";
import type { ProtocolModel } from "../../generator/model/ir.js";
import { REVISIONS, revisionModel as schemaModel } from "./helpers/revision-model.js";

const models = new Map(REVISIONS.map((r) => [r, schemaModel(r)] as const));
const emitted = new Map(REVISIONS.map((r) => [r, emitTypes(models.get(r)!)[0]!.contents] as const));
const typesOf = (r: (typeof REVISIONS)[number]): string => emitted.get(r)!;

function declared(text: string): string[] {
  return [...text.matchAll(/^export (?:interface|type|enum|const enum|class|function|const|let|var) ([\w$]+)/gm)].map(
    (m) => m[1]!,
  );
}

/** The declaration of `name` with the JSDoc right above it. */
function declarationOf(text: string, name: string): string {
  const at = text.search(new RegExp(`^export (?:interface|type) ${name}\\b`, "m"));
  assert.ok(at >= 0, `no declaration of ${name}`);
  const docStart = text.lastIndexOf("/**", at);
  const start = docStart >= 0 && text.slice(text.indexOf("*/", docStart) + 2, at).trim() === "" ? docStart : at;
  const end = text.indexOf("\n\n", at);
  return text.slice(start, end < 0 ? undefined : end);
}

function withoutCommentsAndStrings(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\/\/.*$/gm, "")
    .replace(/"(?:[^"\\]|\\.)*"/g, '""');
}

test("covers every bundled revision", () => {
  assert.equal([...REVISIONS], bundledRevisions());
});

test("emits one file, types.ts", () => {
  const files = emitTypes(models.get("2025-06-18")!);
  assert.equal(
    files.map((f) => f.path),
    ["types.ts"],
  );
});

for (const rev of REVISIONS) {
  test(`${rev}: every definition exported exactly once under its own name, nothing invented`, () => {
    const names = declared(typesOf(rev));
    const defs = models.get(rev)!.types.map((t) => t.name);
    const counts = new Map<string, number>();
    for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
    for (const d of defs) assert.is(counts.get(d), 1, `${d} declared ${counts.get(d) ?? 0} times`);
    const allowed = new Set<string>([...defs, ...MAP_NAMES]);
    const extra = names.filter((n) => !allowed.has(n));
    assert.equal(extra, [], `invented declarations: ${extra.join(", ")}`);
    const numbered = names.filter((n) => /\d$/.test(n) && !defs.includes(n));
    assert.equal(numbered, []);
    for (const m of MAP_NAMES) assert.is(counts.get(m), 1, `map ${m}`);
  });

  test(`${rev}: no any, no empty object types`, () => {
    const code = withoutCommentsAndStrings(typesOf(rev));
    assert.not.match(code, /\bany\b/);
    assert.not.match(code, /\{\s*\}/);
  });

  test(`${rev}: every $ref target is referenced by name`, () => {
    const text = typesOf(rev);
    // Annotations/Role are the classic duplicate victims; both are referenced via $ref with a sibling description.
    const role = rev === "2024-11-05" ? "Role" : "Annotations";
    assert.match(text, new RegExp(`\\b${role}\\b`));
    assert.not.match(text, new RegExp(`\\b${role}[0-9]+\\b`));
  });

  test(`${rev}: descriptions become JSDoc on declarations and properties`, () => {
    const text = typesOf(rev);
    const call = declarationOf(text, "CallToolRequest");
    assert.match(
      call,
      /^\/\*\*\n \* Used by the client to invoke a tool provided by the server\.\n \*\/\nexport interface CallToolRequest \{/,
    );
    const text2 = declarationOf(text, "TextContent");
    assert.match(text2, /\/\*\*\n \* The text content of the message\.\n \*\/\ntext: string/);
    assert.match(declarationOf(text, "RequestId"), /A uniquely identifying ID for a request in JSON-RPC\./);
    // property JSDoc coming from a description that sits next to a $ref
    const progress =
      rev >= "2025-11-25"
        ? declarationOf(text, rev === "2026-07-28" ? "RequestMetaObject" : "RequestParams")
        : declarationOf(text, "Request");
    assert.match(
      progress,
      /If specified, the caller is requesting out-of-band progress notifications[^\n]*\n \*\/\nprogressToken\?: ProgressToken/,
    );
    // every definition description shows up
    for (const t of models.get(rev)!.types) {
      if (t.description === undefined) continue;
      const firstLine = t.description
        .split("\n")[0]!
        .replace(/\*\//g, "* /")
        .replace(/\{@link [^}]*\}/g, "");
      for (const piece of firstLine.split(/\s{2,}/).filter((p) => p.length > 12)) {
        assert.ok(declarationOf(text, t.name).includes(piece.slice(0, 40)), `${t.name}: description missing`);
      }
    }
  });

  test(`${rev}: consts are literal types, integers are numbers, unions stay unions`, () => {
    const text = typesOf(rev);
    assert.match(declarationOf(text, "CallToolRequest"), /method: "tools\/call"/);
    assert.match(declarationOf(text, "RequestId"), /export type RequestId = \(string \| number\)/);
    assert.match(
      declarationOf(text, "JSONRPCMessage"),
      /export type JSONRPCMessage = \(JSONRPCRequest \| JSONRPCNotification \| /,
    );
    if (rev >= "2025-06-18") {
      assert.match(
        declarationOf(text, "ContentBlock"),
        /export type ContentBlock = \(TextContent \| ImageContent \| AudioContent \| ResourceLink \| EmbeddedResource\)/,
      );
    }
    assert.match(declarationOf(text, "TextContent"), /type: "text"/);
  });

  test(`${rev}: method maps follow the model`, () => {
    const text = typesOf(rev);
    const model = models.get(rev)!;
    const union = (name: string): string[] => {
      const m = new RegExp(`^export type ${name} = ([^;]*);`, "m").exec(text);
      assert.ok(m, name);
      return m![1] === "never" ? [] : m![1]!.split(" | ").map((s) => JSON.parse(s) as string);
    };
    const pick = (kind: string, side: string) =>
      model.methods.filter((m) => m.kind === kind && (m.from === side || m.from === "both")).map((m) => m.method);
    assert.equal(union("ClientRequestMethod"), pick("request", "client"));
    assert.equal(union("ServerRequestMethod"), pick("request", "server"));
    assert.equal(union("ClientNotificationMethod"), pick("notification", "client"));
    assert.equal(union("ServerNotificationMethod"), pick("notification", "server"));
    assert.equal(
      union("RequestMethod"),
      model.methods.filter((m) => m.kind === "request").map((m) => m.method),
    );
    for (const m of model.methods) {
      const line = new RegExp(`^${JSON.stringify(m.method).replace(/[/]/g, "\\/")}: \\{ params(\\??):`, "m").exec(text);
      assert.ok(line, `${m.method} missing from the maps`);
      assert.is(line![1], m.paramsRequired ? "" : "?", `${m.method} params optionality`);
    }
  });
}

test("2024-11-05: params that redefine params get the base _meta merged in; others keep theirs", () => {
  const text = typesOf("2024-11-05");
  assert.match(
    text,
    /"tools\/call": \{ params: CallToolRequest\["params"\] & \{ _meta\?: NonNullable<Request\["params"\]>\["_meta"\] \}; result: CallToolResult \};/,
  );
  assert.match(text, /"ping": \{ params\?: NonNullable<PingRequest\["params"\]>; result: EmptyResult \};/);
  assert.match(
    text,
    /"notifications\/cancelled": \{ params: CancelledNotification\["params"\] & \{ _meta\?: NonNullable<Notification\["params"\]>\["_meta"\] \} \};/,
  );
});

test("2025-11-25: named params, schema RequestParams/NotificationParams double as the generic maps", () => {
  const text = typesOf("2025-11-25");
  assert.match(text, /"tools\/call": \{ params: CallToolRequestParams; result: CallToolResult \};/);
  assert.match(
    text,
    /^export type RequestParams<M extends RequestMethod \| void = void> = M extends RequestMethod \? RequestMap\[M\]\["params"\] : \{/m,
  );
  assert.match(text, /^export type NotificationParams<M extends NotificationMethod \| void = void> = /m);
  // tasks/* keep inline params without _meta; the common RequestParams._meta is merged in
  assert.match(
    text,
    /"tasks\/get": \{ params: GetTaskRequest\["params"\] & \{ _meta\?: RequestParams\["_meta"\] \}; result: GetTaskResult \};/,
  );
  assert.match(
    text,
    /"notifications\/elicitation\/complete": \{ params: ElicitationCompleteNotification\["params"\] & \{ _meta\?: NotificationParams\["_meta"\] \} \};/,
  );
});

test("2026-07-28: one-member union is an alias, pinned results are discriminated on resultType", () => {
  const text = typesOf("2026-07-28");
  assert.match(text, /^export type ClientNotification = CancelledNotification$/m);
  assert.match(
    text,
    /"tools\/call": \{ params: CallToolRequestParams; result: \(InputRequiredResult & \{ resultType: "input_required" \}\) \| \(CallToolResult & \{ resultType: "complete" \}\) \};/,
  );
  assert.not.match(text, /"initialize"/);
  assert.match(declarationOf(text, "MetaObject"), /\[k: string\]: unknown/);
  // `roots: { type: "object", properties: {} }` must not become the anything-goes `{}` type
  assert.match(declarationOf(text, "ClientCapabilities"), /roots\?: \{\n\[k: string\]: unknown\n\}/);
  assert.match(declarationOf(text, "RequestMetaObject"), /\[k: string\]: unknown/);
});

test("deterministic and does not mutate the model", () => {
  const model = schemaModel("2026-07-28");
  const before = JSON.stringify(model);
  const a = emitTypes(model)[0]!.contents;
  const b = emitTypes(model)[0]!.contents;
  assert.is(a, b);
  assert.is(JSON.stringify(model), before);
  assert.is(a, typesOf("2026-07-28"));
});

function tinyModel(types: ProtocolModel["types"]): ProtocolModel {
  const document = { definitions: Object.fromEntries(types.map((t) => [t.name, t.schema])) };
  return {
    revision: "test",
    era: "legacy",
    dialect: "draft-07",
    defsKey: "definitions",
    batching: false,
    source: { display: "test", sha256: "0".repeat(64) },
    document,
    types,
    methods: [],
  };
}

test("comment terminators in descriptions are escaped", () => {
  const text = emitTypes(
    tinyModel([
      {
        name: "A",
        description: "ends */ early",
        schema: {
          description: "ends */ early",
          type: "object",
          properties: { x: { description: "also */ here", type: "string" } },
        },
      },
    ]),
  )[0]!.contents;
  assert.not.match(text.replace(/^\/\*\*|\*\/$/gm, ""), /ends \*\/|also \*\//);
  assert.match(text, /ends \* \/ early/);
  assert.match(text, /also \* \/ here/);
});

test("bad references fail with the definition and JSON pointer", () => {
  try {
    emitTypes(
      tinyModel([{ name: "A", schema: { type: "object", properties: { x: { $ref: "#/definitions/Missing" } } } }]),
    );
    assert.unreachable();
  } catch (err) {
    assert.instance(err, TypesEmitError);
    assert.match(
      (err as Error).message,
      '#/definitions/A/properties/x/$ref: reference to unknown definition "Missing"',
    );
  }
  assert.throws(
    () => emitTypes(tinyModel([{ name: "A", schema: { $ref: "other.json#/X" } }])),
    /#\/definitions\/A\/\$ref: expected a local reference/,
  );
  assert.throws(() => emitTypes(tinyModel([{ name: "ResultOf", schema: { type: "string" } }])), /collides/);
});

test("link repair restores the TSDoc label separator only where the target is a definition", () => {
  const names = new Set(["CallToolRequest", "Tool", "MetaObject", "Result", "ResultType"]);
  assert.is(repairLinks("see {@link CallToolRequesttools/call}.", names), "see {@link CallToolRequest | tools/call}.");
  assert.is(
    repairLinks("{@link Tool} {@link Tool.outputSchema} {@link ResultType}", names),
    "{@link Tool} {@link Tool.outputSchema} {@link ResultType}",
  );
  assert.is(repairLinks("{@link MetaObject`_meta` key naming}", names), "{@link MetaObject | `_meta` key naming}");
  assert.is(repairLinks("{@link Unknownthing}", names), "{@link Unknownthing}");
});

test("the synchronous pipeline matches json-schema-to-typescript's compile() on normalised definitions", async () => {
  const model = models.get("2025-11-25")!;
  const names = new Set(model.types.map((t) => t.name));
  const opts = { bannerComment: "", format: false, additionalProperties: false, ignoreMinAndMaxItems: true };
  for (const name of [
    "CallToolResult",
    "ContentBlock",
    "RequestId",
    "ElicitRequestParams",
    "Annotations",
    "ClientCapabilities",
    "GetTaskResult",
  ]) {
    const def = model.types.find((t) => t.name === name)!;
    const ctx = { refPrefix: "#/$defs/", names, definition: `#/$defs/${name}`, openDefinitions: new Set<string>() };
    const schema = normaliseSchema(def.schema, ctx) as Parameters<typeof compile>[0];
    const sync = compileSync(structuredClone(schema), name, opts).trim();
    assert.is(sync, (await compile(structuredClone(schema), name, opts)).trim(), name);
    assert.ok(typesOf("2025-11-25").includes(sync), `${name} emitted as compiled`);
  }
});

test.run();
