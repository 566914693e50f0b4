// mcpgen's bundled revisions share their validators (emit/protocol/validators/share.ts): the emitted tree
// of all five imports only files it holds, has no import cycle, is the same on every run, and each
// revision's loaders give exactly the validators its facade exports.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Validator, ValidatorLoaders } from "@mcpgen/runtime/abi/v8";
import { emitValidators, validatorSharing } from "../../generator/emit/protocol/validators.js";
import type { EmittedFile } from "../../generator/model/ir.js";
import { SHARED_FOLDER } from "../../generator/paths.js";
import { modelOf, removeDir, REVISIONS, tempDir, writeTranspiled } from "./validators-fixture.js";

/** Per folder (each revision's, and the shared one) the files emitted into it. */
async function emitAll(): Promise<Map<string, EmittedFile[]>> {
  const sharing = validatorSharing(REVISIONS, () => REVISIONS.map(modelOf));
  const out = new Map<string, EmittedFile[]>();
  for (const r of REVISIONS) out.set(r, await emitValidators(modelOf(r), { sharing }));
  out.set(SHARED_FOLDER, await sharing.sharedFiles());
  return out;
}

const specifiers = (source: string): string[] =>
  [...source.matchAll(/(?:from |import\()"(\.[^"]+)"/g)].map((m) => m[1]!);
const normalise = (path: string): string => {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "..") out.pop();
    else if (part !== ".") out.push(part);
  }
  return out.join("/");
};

test("the five revisions' tree: every relative import is a file of it, no cycles, fewer bytes than one split per revision", async () => {
  const all = await emitAll();
  const files = new Map<string, string>();
  for (const [r, list] of all) for (const f of list) files.set(`${r}/${f.path}`, f.contents);
  const edges = new Map<string, string[]>();
  for (const [path, contents] of files) {
    const dir = path.slice(0, path.lastIndexOf("/"));
    const targets = specifiers(contents).map((s) => normalise(`${dir}/${s}`).replace(/\.js$/, ".ts"));
    for (const t of targets)
      assert.ok(
        files.has(t) || /^[^/]+\/(?:types|table|methods)\.ts$/.test(t),
        `${path} imports ${t}, which is not emitted`,
      );
    edges.set(
      path,
      targets.filter((t) => files.has(t)),
    );
  }
  const done = new Set<string>();
  const visit = (m: string, stack: string[]): void => {
    assert.not.ok(stack.includes(m), `import cycle ${[...stack, m].join(" -> ")}`);
    if (done.has(m)) return;
    for (const next of edges.get(m) ?? []) visit(next, [...stack, m]);
    done.add(m);
  };
  for (const m of edges.keys()) visit(m, []);
  // Some module serves several revisions, from the shared folder; a folder imports only its own files and the shared folder's.
  const crossRevision = [...files].filter(
    ([path, c]) => path.split("/")[1] === "loaders.ts" && c.includes(`import("../${SHARED_FOLDER}/validators/`),
  );
  assert.ok(crossRevision.length > 0, "a revision's loaders import a module of the shared folder");
  for (const [path, targets] of edges) {
    const folder = path.split("/")[0];
    // The generated server's loaders (server-side/load.ts and its bundlers' twin) reach every revision's
    // per-method server entries, and nothing of the tree imports them.
    const serverLoad = folder === SHARED_FOLDER && /^[^/]+\/server-side\/load(-bundled)?\.ts$/.test(path);
    for (const t of targets)
      assert.ok(
        serverLoad || [folder, SHARED_FOLDER].includes(t.split("/")[0]!),
        `${path} imports ${t}, outside its folder and the shared one`,
      );
    if (serverLoad) {
      assert.ok(
        targets.length > 0 && targets.every((t) => /^[^/]+\/server-side\//.test(t)),
        `${path} imports only server-side entries`,
      );
    } else if (folder === SHARED_FOLDER)
      assert.ok(
        targets.every((t) => t.startsWith(`${SHARED_FOLDER}/`)),
        `${path} imports only the shared folder`,
      );
  }
  for (const [path, targets] of edges)
    assert.not.ok(
      targets.some((t) => /\/server-side\/load(-bundled)?\.ts$/.test(t)),
      `${path} imports the server's loaders`,
    );
  let separate = 0;
  for (const r of REVISIONS)
    for (const f of await emitValidators(modelOf(r)))
      if (f.path.startsWith("validators/")) separate += f.contents.length;
  let shared = 0;
  for (const [path, c] of files) if (path.includes("/validators/")) shared += c.length;
  assert.ok(shared < separate * 0.9, `shared ${shared} bytes against ${separate} split per revision`);
});

test("the generated server's loaders: one per server-side entry of every revision, imported on first use or (bundlers) statically", async () => {
  const all = await emitAll();
  const entries = REVISIONS.flatMap((r) =>
    all
      .get(r)!
      .filter((f) => f.path.startsWith("server-side/"))
      .map((f) => `../../${r}/${f.path.replace(/\.ts$/, ".js")}`),
  ).sort();
  assert.ok(entries.length > REVISIONS.length);
  const shared = (name: string) => all.get(SHARED_FOLDER)!.find((f) => f.path === name)!.contents;
  const onFirstUse = shared("server-side/load.ts");
  const bundled = shared("server-side/load-bundled.ts");
  assert.equal([...onFirstUse.matchAll(/\(\) =>\s+import\("([^"]+)"\)/g)].map((m) => m[1]).sort(), entries);
  assert.equal([...bundled.matchAll(/^import \* as \w+ from\s+"([^"]+)";$/gm)].map((m) => m[1]).sort(), entries);
  assert.not.match(bundled, /import\(/);
  // the same names in both
  const names = (text: string) => [...text.matchAll(/^export const (\w+) =/gm)].map((m) => m[1]).sort();
  assert.equal(names(bundled), names(onFirstUse));
  assert.is(names(onFirstUse).length, entries.length);
});

test("deterministic: the same tree on every run", async () => {
  assert.equal(await emitAll(), await emitAll());
});

test("each revision's loaders give exactly the validators its facade exports, one function per shared validator", async () => {
  const all = await emitAll();
  const dir = tempDir("validators-share-");
  try {
    for (const [r, list] of all) writeTranspiled(join(dir, r), list);
    const seen = new Map<Validator, string>();
    for (const r of REVISIONS) {
      const facade = (await import(pathToFileURL(join(dir, r, "validators.js")).href)) as {
        paramsValidators: Record<string, Validator>;
        resultValidators: Record<string, Validator>;
      };
      const { validators } = (await import(pathToFileURL(join(dir, r, "loaders.js")).href)) as {
        validators: ValidatorLoaders;
      };
      for (const [kind, expected] of [
        ["params", facade.paramsValidators],
        ["results", facade.resultValidators],
      ] as const) {
        assert.equal(Object.keys(validators[kind]).sort(), Object.keys(expected).sort(), `${r} ${kind}`);
        for (const [method, load] of Object.entries(validators[kind])) {
          const v = (await load()).validate;
          assert.is(v, expected[method], `${r} ${kind} of ${method}`);
          seen.set(v, `${r} ${method}`);
        }
      }
    }
    // ping's params are the same in the first two revisions: one function.
    const ping = async (r: string) =>
      (
        await ((await import(pathToFileURL(join(dir, r, "loaders.js")).href)) as { validators: ValidatorLoaders })
          .validators.params.ping!()
      ).validate;
    assert.is(await ping("2024-11-05"), await ping("2025-03-26"));
    assert.ok(seen.size > 0);
  } finally {
    removeDir(dir);
  }
});

test.run();
