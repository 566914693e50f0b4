// The 2026-07-28 params validators a server runs after checkRequestMeta accepted a request's
// `_meta`: they leave out what it checked (generator/emit/protocol/validators.ts
// `afterRequestMeta`), and refuse everything else exactly as the definitions' validators do.
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { checkRequestMeta } from "@mcpgen/runtime/internal";
import type { ProtocolBinding, Validator } from "@mcpgen/runtime/abi/v8";
import { loadValidators, modelOf } from "./validators-fixture.js";

const REVISION = "2026-07-28";
const modern = new Map([[REVISION, { revision: REVISION } as unknown as ProtocolBinding]]);
const accepted = (params: Record<string, unknown>): boolean =>
  !("code" in checkRequestMeta(params, modern, [REVISION, "2025-11-25"]));

const valid = {
  "io.modelcontextprotocol/protocolVersion": REVISION,
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** The issues as an error answer quotes them (session/replies.ts `invalidParams`), and ajv's params. */
const answered = (v: Validator) =>
  (v.errors ?? []).map((i) => ({
    instancePath: i.instancePath,
    keyword: i.keyword,
    params: i.params,
    message: i.message,
  }));

const some = <T>(...values: T[]) => fc.option(fc.constantFrom(...values), { nil: undefined });
/** Mostly one of `values` or absent, else any JSON. */
const mostly = <T>(...values: T[]) =>
  fc.oneof({ weight: 6, arbitrary: some(...values) }, { weight: 1, arbitrary: fc.jsonValue() });
const meta = fc.record(
  {
    "io.modelcontextprotocol/protocolVersion": fc.oneof(
      { weight: 6, arbitrary: fc.constant(REVISION) },
      { weight: 1, arbitrary: some<unknown>("2025-11-25", "1999-01-01") },
      { weight: 1, arbitrary: fc.jsonValue() },
    ),
    "io.modelcontextprotocol/clientCapabilities": mostly<unknown>(
      {},
      { elicitation: { form: {}, url: { x: [1, "a", true, { y: {} }] } } },
      { elicitation: { form: 1 } },
      { elicitation: [] },
      { experimental: { a: { b: 1.5 } } },
      { extensions: { "a/b": { c: null } } },
      { roots: { listChanged: true } },
      { roots: "yes" },
      { sampling: { tools: {}, context: [] } },
      [],
      "all",
    ),
    "io.modelcontextprotocol/clientInfo": mostly<unknown>(
      { name: "c", version: "1" },
      { name: "c" },
      { version: "1" },
      { name: 1, version: "1" },
      { name: "c", version: 1 },
      { name: "c", version: "1", title: 5 },
      { name: "c", version: "1", icons: [{ src: "https://example.com/i.png", theme: "dark" }] },
      { name: "c", version: "1", icons: [{ src: "not a uri" }] },
      { name: "c", version: "1", icons: [{ src: "https://example.com/i.png", theme: "dim" }] },
      { name: "c", version: "1", websiteUrl: "nope" },
      "client",
    ),
    "io.modelcontextprotocol/logLevel": mostly<unknown>("info", "emergency", "loud", 3),
    progressToken: some<unknown>("t", 7, 1.5, {}, null),
    other: fc.jsonValue(),
  },
  { requiredKeys: ["io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities"] },
);
const params = fc.record(
  {
    _meta: fc.oneof({ weight: 5, arbitrary: meta }, { weight: 1, arbitrary: fc.jsonValue() }),
    name: some<unknown>("t", 5),
    uri: some<unknown>("file:///a", 5),
    cursor: some<unknown>("c", 1),
    arguments: some<unknown>({ a: 1 }, [], { argument: 1 }),
    argument: some<unknown>({ name: "n", value: "v" }, { name: "n" }),
    ref: some<unknown>({ type: "ref/prompt", name: "p" }, { type: "other" }),
    notifications: some<unknown>({}, { toolsListChanged: true }, { toolsListChanged: "yes" }),
    inputResponses: some<unknown>({}, { k: {} }, { k: 1 }),
    requestState: some<unknown>("s", 2),
  },
  { requiredKeys: [] },
);

test(`${REVISION}: a server's params validators answer as the definitions' wherever checkRequestMeta accepted _meta`, async () => {
  const model = modelOf(REVISION);
  const loaded = await loadValidators(REVISION);
  // `inputResponses` entries are checked where a handler reads them (validators.test.ts).
  const relaxedEntries = new Set(["tools/call", "prompts/get", "resources/read"]);
  const requests = model.methods.filter((m) => m.kind === "request" && m.from === "client" && m.paramsType !== null);
  assert.ok(requests.length >= 8, "the client's requests");
  for (const method of requests) {
    const served = loaded.paramsValidators[method.method]!;
    const full = loaded.validator(method.paramsType!);
    let checked = 0;
    fc.assert(
      fc.property(params, (generated) => {
        if (!accepted(generated)) return;
        checked++;
        const p = { ...generated };
        if (relaxedEntries.has(method.method)) delete p.inputResponses;
        const ok = served(p);
        assert.is(ok, full(p), `${method.method}: ${JSON.stringify(p)}`);
        if (!ok) assert.equal(answered(served), answered(full), `${method.method}: ${JSON.stringify(p)}`);
      }),
      { numRuns: 400, seed: 2607 },
    );
    assert.ok(checked >= 50, `${method.method}: ${checked} of 400 accepted by checkRequestMeta`);
  }
});

test(`${REVISION}: what checkRequestMeta answers is not checked again`, async () => {
  const loaded = await loadValidators(REVISION);
  const call = loaded.paramsValidators["tools/call"]!;
  const full = loaded.validator("CallToolRequestParams");
  for (const _meta of [
    { "io.modelcontextprotocol/clientCapabilities": {} },
    { ...valid, "io.modelcontextprotocol/protocolVersion": 2026 },
    { ...valid, "io.modelcontextprotocol/logLevel": "loud" },
    { ...valid, "io.modelcontextprotocol/clientInfo": { name: "c", version: 1 } },
  ]) {
    assert.not.ok(accepted({ name: "t", _meta }), "checkRequestMeta refuses it");
    assert.not.ok(full({ name: "t", _meta }), "the definition refuses it");
    assert.ok(call({ name: "t", _meta }), "the server's validator leaves it to checkRequestMeta");
  }
  assert.ok(call({ name: "t" }), "_meta absent: checkRequestMeta's answer");
  // The shapes inside are still the validator's.
  const icons = { name: "c", version: "1", icons: [{ src: "not a uri" }] };
  assert.not.ok(call({ name: "t", _meta: { ...valid, "io.modelcontextprotocol/clientInfo": icons } }));
  assert.is(call.errors?.[0]?.instancePath, "/_meta/io.modelcontextprotocol~1clientInfo/icons/0/src");
  assert.not.ok(call({ name: "t", _meta: { ...valid, progressToken: 1.5 } }));
  assert.is(call.errors?.[0]?.instancePath, "/_meta/progressToken");
});

test.run();
