// Per-tool OAuth scopes (`auth.scopes`): validated with pointers, carried into the definition's
// `toolScopes` and the handler docs, never published in tools/list.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { parseManifest } from "../../generator/load/manifest.js";
import { InputError } from "../../generator/load/diagnostics.js";
import { buildServerModel } from "../../generator/model/build-server.js";
import { emitDefinition } from "../../generator/emit/manifest/definition.js";
import { emitServer } from "../../generator/emit/manifest/server.js";
import { formatSource } from "../../generator/print/format.js";

const manifest = (scopes: unknown): string =>
  JSON.stringify({
    name: "notes",
    version: "1.0.0",
    tools: [
      { name: "read", inputSchema: { type: "object" } },
      { name: "write", description: "Write a note", inputSchema: { type: "object" }, auth: { scopes } },
    ],
  });

test("auth.scopes: definition.toolScopes lists only scoped tools; the handler doc names the scope", async () => {
  const loaded = parseManifest(manifest(["notes:write", "notes:read"]), "m.json");
  const model = buildServerModel(loaded);
  assert.equal(
    model.tools.map((t) => t.scopes),
    [[], ["notes:write", "notes:read"]],
  );
  const def = await formatSource("definition.ts", emitDefinition(model).contents);
  assert.match(def, /toolScopes: \{\n\s+write: \["notes:write", "notes:read"\],\n\s+\}/);
  assert.not.match(def, /read: \[/);
  assert.match(emitServer(model).contents, /Requires OAuth scope `notes:write`, `notes:read`/);
});

test("auth.scopes: a non scope-token or a duplicate is an error at its pointer", () => {
  let errors: string[] = [];
  try {
    parseManifest(manifest(["ok", "has space", "ok"]), "m.json");
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    errors = e.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.pointer}: ${d.message}`);
  }
  assert.equal(errors.length, 2, errors.join("\n"));
  assert.match(
    errors.join("\n"),
    /\/tools\/1\/auth\/scopes\/1: OAuth scope "has space" is not an RFC 6749 scope-token/,
  );
  assert.match(errors.join("\n"), /\/tools\/1\/auth\/scopes\/2: duplicate scope "ok"/);
});

test("a manifest without scopes emits no toolScopes", () => {
  const model = buildServerModel(
    parseManifest(
      JSON.stringify({ name: "n", version: "1", tools: [{ name: "t", inputSchema: { type: "object" } }] }),
      "m.json",
    ),
  );
  assert.not.match(emitDefinition(model).contents, /toolScopes/);
});

test.run();
