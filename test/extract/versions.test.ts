// Two versions of one source module, as `mcpgen breaking` / `diff` will compare them: the
// extracted manifests differ exactly where the source changed (order and layout are stable), and
// each is a valid manifest.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { extractManifest } from "../../generator/extract/index.js";
import { parseManifest } from "../../generator/load/manifest.js";
import { removeDir, tempDir } from "../generator/validators-fixture.js";

const dir = tempDir("extract-versions-");
test.after(() => removeDir(dir));

const v1 = `export interface Item {
  id: string;
  qty: number;
}
export const tools = {
  /** Add an item. */
  add(input: { item: Item; note?: string }): { total: number } {
    return { total: input.item.qty };
  },
  /** Remove an item. */
  remove(input: { id: string }) {
    return input.id;
  },
};
`;

// v2: `note` becomes required, `Item` gains an optional field, a tool is added in between.
const v2 = v1
  .replace("note?: string", "note: string")
  .replace("  qty: number;\n", "  qty: number;\n  label?: string;\n")
  .replace(
    "  /** Remove an item. */",
    "  /** Count the items. */\n  count(): { n: number } {\n    return { n: 0 };\n  },\n  /** Remove an item. */",
  );

test("the manifests of two versions differ only where the source changed", async () => {
  writeFileSync(join(dir, "v1.ts"), v1);
  writeFileSync(join(dir, "v2.ts"), v2);
  const a = await extractManifest("v1.ts", { cwd: dir, name: "items" });
  const b = await extractManifest("v2.ts", { cwd: dir, name: "items" });
  for (const r of [a, b]) parseManifest(r.text, "extracted");
  type Tool = { name: string; inputSchema: { required: string[]; $defs: { Item: { properties: object } } } };
  const ta = (a.manifest.tools as Tool[]).map((t) => t.name);
  const tb = (b.manifest.tools as Tool[]).map((t) => t.name);
  assert.equal(ta, ["add", "remove"]);
  assert.equal(tb, ["add", "count", "remove"]);
  const [addA, removeA] = a.manifest.tools as Tool[];
  const [addB, , removeB] = b.manifest.tools as Tool[];
  assert.equal(removeA, removeB);
  assert.equal(addA!.inputSchema.required, ["item"]);
  assert.equal(addB!.inputSchema.required, ["item", "note"]);
  assert.equal(Object.keys(addB!.inputSchema.$defs.Item.properties), ["id", "qty", "label"]);
  // and re-extracting an unchanged source gives the same bytes
  const again = await extractManifest("v1.ts", { cwd: dir, name: "items" });
  assert.is(again.text, a.text);
});

test.run();
