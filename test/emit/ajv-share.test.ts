// Splitting several revisions' ajv code together (mcpgen's bundled revisions): identical validators
// become one module, named by content, in the folder of the first revision using it; the module
// graph has no cycles and the output does not change between runs.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { shareStandalone, type ShareRevision } from "../../generator/emit/protocol/validators/share.js";
import { UNREACHED_MODULE } from "../../generator/emit/protocol/validators/split.js";
import { SHARED_FOLDER } from "../../generator/paths.js";

const HELPER = "function fail(validate, instancePath) {validate.errors = [{instancePath}];return false;}";
const code = (lines: string[]) => [HELPER, ...lines].join("\n");

// Two revisions: the string check (and the recursive pair calling it) is the same code under
// other numbers; the entry calling it differs.
const OLD: ShareRevision = {
  revision: "2024-01-01",
  code: code([
    "export const Str: abi.Validator = validate1;",
    "export const Entry: abi.Validator = validate2;",
    "export const Tree: abi.Validator = validate3;",
    'function validate1(data) {if (typeof data !== "string") {return fail(validate1, "");} return true;}',
    "function validate2(data) {return validate1(data.name) && validate3(data.tree);}",
    "function validate3(data) {return validate4(data.left) && validate1(data.label);}",
    "function validate4(data) {return data === null || validate3(data);}",
  ]),
  entries: [{ module: "Entry", exportName: "Entry" }],
};
const NEW: ShareRevision = {
  revision: "2025-01-01",
  code: code([
    "export const Str: abi.Validator = validate7;",
    "export const Entry: abi.Validator = validate5;",
    "export const Tree: abi.Validator = validate9;",
    "export const Only: abi.Validator = validate6;",
    "function validate5(data) {return validate7(data.name) && validate9(data.tree) && data.v === 2;}",
    "function validate6(data) {return false;}",
    'function validate7(data) {if (typeof data !== "string") {return fail(validate7, "");} return true;}',
    "function validate8(data) {return data === null || validate9(data);}",
    "function validate9(data) {return validate8(data.left) && validate7(data.label);}",
  ]),
  entries: [
    { module: "Entry", exportName: "Entry" },
    { module: "Tree", exportName: "Tree" },
  ],
};
const share = () => shareStandalone({ abi: "abi", helper: "fail", revisions: [OLD, NEW] });

test("a validator identical in two revisions is one module of the shared folder, which both import", () => {
  const out = share();
  const old = out.get(OLD.revision)!;
  const next = out.get(NEW.revision)!;
  const folder = out.get(SHARED_FOLDER)!;
  // The string check and the recursive pair are reached by both Entry validators and by Tree.
  const shared = folder.modules.filter((m) => m.name.startsWith("shared-"));
  assert.is(shared.length, 1, folder.modules.map((m) => m.name).join(", "));
  const s = shared[0]!.contents;
  assert.is(s.match(/^function f[0-9a-f]{12}\(/gm)!.length, 3, "the string check and the recursive pair, once");
  assert.not.match(s, /validate\d/, "named by content, not by ajv's numbers");
  for (const r of [old, next])
    assert.equal(
      r.modules.map((m) => m.name).filter((n) => n.startsWith("shared-")),
      [],
      "a revision's folder holds no module another revision uses",
    );
  // Each revision's Entry differs (data.v === 2 in the later one): its own module, importing from the shared folder.
  const entry = next.modules.find((m) => m.name === "Entry")!.contents;
  assert.match(entry, new RegExp(`from "\\.\\./\\.\\./${SHARED_FOLDER}/validators/${shared[0]!.name}\\.js";`));
  assert.match(entry, /data\.v === 2/);
  // Tree is an entry only in the later revision, which alone uses it: its own folder.
  assert.equal(next.entries.get("Tree"), `./validators/Tree.js`);
  const tree = next.modules.find((m) => m.name === "Tree")!.contents;
  assert.match(tree, new RegExp(`from "\\.\\./\\.\\./${SHARED_FOLDER}/validators/${shared[0]!.name}\\.js";`));
  assert.match(tree, /export const validate: abi\.Validator = f[0-9a-f]{12};/);
  // The facade of each revision finds Str in the same module under the same name.
  const [oldSpec, oldLocal] = old.located.get("Str")!;
  const [newSpec, newLocal] = next.located.get("Str")!;
  assert.is(oldSpec, `../${SHARED_FOLDER}/validators/${shared[0]!.name}.js`);
  assert.is(newSpec, oldSpec);
  assert.is(newLocal, oldLocal);
  assert.match(s, new RegExp(`export const ${oldLocal}: abi\\.Validator = f`));
  // The shared folder never imports a revision's folder.
  for (const m of folder.modules) assert.not.match(m.contents, /from "\.\.\//, m.name);
  // Only reached by the facade: the later revision's own definitions module.
  assert.match(next.modules.find((m) => m.name === UNREACHED_MODULE)!.contents, /return false;/);
});

test("an entry validator several revisions share is named by its content in the shared folder", () => {
  const out = shareStandalone({ abi: "abi", helper: "fail", revisions: [OLD, { ...OLD, revision: "2026-01-01" }] });
  const folder = out.get(SHARED_FOLDER)!;
  const entries = folder.modules.filter((m) => /^Entry-[0-9a-f]{10}$/.test(m.name));
  assert.is(entries.length, 1, folder.modules.map((m) => m.name).join(", "));
  for (const r of [OLD.revision, "2026-01-01"])
    assert.is(out.get(r)!.entries.get("Entry"), `../${SHARED_FOLDER}/validators/${entries[0]!.name}.js`);
});

test("deterministic, whatever ajv's numbering", () => {
  assert.equal(share(), share());
  // The same code numbered differently names the same functions.
  const renumbered: ShareRevision = {
    ...OLD,
    code: OLD.code.replaceAll("validate1", "validate11").replaceAll("validate3", "validate33"),
  };
  const a = shareStandalone({ abi: "abi", helper: "fail", revisions: [OLD] }).get(OLD.revision)!;
  const b = shareStandalone({ abi: "abi", helper: "fail", revisions: [renumbered] }).get(OLD.revision)!;
  assert.equal(b.modules, a.modules);
  assert.equal([...b.located], [...a.located]);
});

test("different code never shares a name", () => {
  const other: ShareRevision = {
    ...NEW,
    code: NEW.code.replace('typeof data !== "string"', 'typeof data !== "number"'),
  };
  const out = shareStandalone({ abi: "abi", helper: "fail", revisions: [OLD, other] });
  assert.is.not(out.get(other.revision)!.located.get("Str")![1], out.get(OLD.revision)!.located.get("Str")![1]);
});

test("refuses what it does not recognise, and entries that name no export", () => {
  assert.throws(
    () => shareStandalone({ abi: "abi", helper: "fail", revisions: [{ ...OLD, code: `${OLD.code}\nlet x = 1;` }] }),
    /unexpected top-level statement/,
  );
  assert.throws(
    () =>
      shareStandalone({
        abi: "abi",
        helper: "fail",
        revisions: [{ ...OLD, entries: [{ module: "X", exportName: "Nope" }] }],
      }),
    /no export Nope/,
  );
});

test.run();
