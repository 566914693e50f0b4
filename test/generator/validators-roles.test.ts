// Per role, a revision's loaders (server-side.ts, client-side.ts) name the validators of what that
// role receives and nothing else: a bundle of a server never reaches a module only a client uses,
// as emitted and as @mcpgen/runtime ships it (bundled, where chunking could merge them back).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { lazyBinding, type RevisionInfo, type ValidatorLoaders } from "@mcpgen/runtime/abi/v8";
import { emitValidators, ROLE_FILES, type Role } from "../../generator/emit/protocol/validators.js";
import type { EmittedFile, MethodDef } from "../../generator/model/ir.js";
import { modelOf, REVISIONS } from "./validators-fixture.js";

type Kind = "params" | "results";
const PEER: Record<Role, Role> = { server: "client", client: "server" };

/** Written out from the spec's direction rules rather than the emitter's helper. */
function expectedReceive(role: Role, m: MethodDef, kind: Kind): boolean {
  if (kind === "params") return m.from === "both" || m.from === PEER[role];
  return m.kind === "request" && (m.from === "both" || m.from === role);
}

/** method -> module name (validators/<name>) of each thunk in a loaders file, per kind. */
function thunks(source: string): Record<Kind, Map<string, string>> {
  const [params, results] = source.split(/\n\s*results: \{/);
  const read = (part: string) =>
    new Map(
      [...part!.matchAll(/^\s*("[^"]+"|[\w$]+): \(\) => import\("\.\/validators\/([^"]+)\.js"\),$/gm)].map((m) => [
        m[1]!.replace(/^"|"$/g, ""),
        m[2]!,
      ]),
    );
  return { params: read(params!), results: read(results ?? "") };
}

/** Every validators/ module `roots` reach through their static imports. */
function closure(files: Map<string, string>, roots: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const m = stack.pop()!;
    if (seen.has(m)) continue;
    seen.add(m);
    const code = files.get(m);
    assert.ok(code !== undefined, `validators/${m}.ts is imported but not emitted`);
    for (const i of code!.matchAll(/from "\.\/([^"]+)\.js"/g)) stack.push(i[1]!);
  }
  return seen;
}

for (const revision of REVISIONS) {
  test(`${revision}: each role's loaders hold exactly what it receives, and reach no module only the other role uses`, async () => {
    const model = modelOf(revision);
    const emitted: EmittedFile[] = await emitValidators(model);
    const file = (path: string) => emitted.find((f) => f.path === path)!.contents;
    const modules = new Map(
      emitted
        .filter((f) => f.path.startsWith("validators/"))
        .map((f) => [f.path.slice("validators/".length, -".ts".length), f.contents]),
    );
    const all = thunks(file("loaders.ts"));
    const byRole = { server: thunks(file(ROLE_FILES.server)), client: thunks(file(ROLE_FILES.client)) };
    for (const kind of ["params", "results"] as const) {
      // Every loader is some role's, with the module loaders.ts gives it.
      const union = new Set([...byRole.server[kind].keys(), ...byRole.client[kind].keys()]);
      assert.equal(
        [...union].sort(),
        [...all[kind].keys()].sort(),
        `${kind}: server and client together cover loaders.ts`,
      );
      for (const role of ["server", "client"] as const) {
        const expected = model.methods
          .filter((m) => all[kind].has(m.method) && expectedReceive(role, m, kind))
          .map((m) => m.method);
        assert.equal([...byRole[role][kind].keys()].sort(), expected.sort(), `${role} ${kind}`);
        for (const [method, module] of byRole[role][kind])
          assert.is(module, all[kind].get(method), `${role} ${kind} ${method}`);
      }
    }
    for (const role of ["server", "client"] as const) {
      const own = (r: Role) => [...byRole[r].params.values(), ...byRole[r].results.values()];
      const reached = closure(modules, own(role));
      const otherOnly = own(PEER[role]).filter((m) => !closure(modules, own(role)).has(m));
      assert.ok(otherOnly.length > 0, `${revision}: the ${PEER[role]} receives something the ${role} never does`);
      for (const m of otherOnly)
        assert.not.ok(reached.has(m), `${role}-side.ts reaches ${m}, which only a ${PEER[role]} uses`);
    }
    // elicitation/create: a server sends it, so only a client checks its params.
    if (model.methods.some((m) => m.method === "elicitation/create")) {
      assert.not.ok(byRole.server.params.has("elicitation/create"));
      assert.ok(byRole.client.params.has("elicitation/create"));
    }
  });
}

/** The chunk files a bundled runtime module imports statically, transitively (itself included). */
function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    const code = readFileSync(f, "utf8");
    for (const m of code.matchAll(/(?:from\s*|import\s*)"(\.{1,2}\/[^"]+\.js)"/g)) stack.push(join(dirname(f), m[1]!));
  }
  return seen;
}

/** File names of the chunks the loaders in `files` import lazily. */
function lazyTargets(files: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const f of files)
    for (const m of readFileSync(f, "utf8").matchAll(/import\("(\.{1,2}\/[^"]+\.js)"\)/g))
      out.add(join(dirname(f), m[1]!));
  return out;
}

const require = createRequire(import.meta.url);

test("@mcpgen/runtime/protocol/<rev>/server-side: a lazy binding of the server's loaders whose bundled files never import a client-only validator", async () => {
  for (const revision of REVISIONS) {
    const server = (await import(`@mcpgen/runtime/protocol/${revision}/server-side`)) as RevisionInfo;
    const client = (await import(`@mcpgen/runtime/protocol/${revision}/client-side`)) as RevisionInfo;
    const full = (await import(`@mcpgen/runtime/protocol/${revision}/methods`)) as RevisionInfo;
    assert.is(server.methods, full.methods, `${revision}: one method table`);
    assert.is(client.methods, full.methods);
    for (const [role, info] of [
      ["server", server],
      ["client", client],
    ] as const) {
      const expected = (kind: Kind) =>
        Object.keys(full.validators[kind]).filter((method) =>
          expectedReceive(role, { ...(full.methods as Record<string, MethodDef>)[method]!, method }, kind),
        );
      const keys = (v: ValidatorLoaders, kind: Kind) => Object.keys(v[kind]).sort();
      assert.equal(keys(info.validators, "params"), expected("params").sort(), `${revision} ${role} params`);
      assert.equal(keys(info.validators, "results"), expected("results").sort(), `${revision} ${role} results`);
    }
    assert.is(lazyBinding(server).revision, revision);

    // As bundled: what server-side.js reaches statically imports exactly the validator chunks its
    // own loaders name (no chunk shared with methods.js carries the other role's loaders along).
    const entry = (role: string) => require.resolve(`@mcpgen/runtime/protocol/${revision}/${role}`);
    // What the runtime's core reaches, every program reaches (the client and task paths it loads lazily).
    const core = staticClosure(require.resolve("@mcpgen/runtime/abi/v8"));
    const beyondCore = (e: string) => [...staticClosure(e)].filter((f) => !core.has(f));
    const serverOwn = lazyTargets([entry("server-side")]);
    const serverReach = lazyTargets(beyondCore(entry("server-side")));
    assert.ok(serverOwn.size > 0, `${revision}: server-side.js holds its loaders`);
    assert.equal(
      [...serverReach].sort(),
      [...serverOwn].sort(),
      `${revision}: server-side.js reaches only its own loaders`,
    );
    const clientOnly = [...lazyTargets([entry("client-side")])].filter((f) => !serverOwn.has(f));
    assert.ok(clientOnly.length > 0, `${revision}: a client loads validators a server never does`);
    for (const f of clientOnly) assert.not.ok(serverReach.has(f), `${revision}: server-side reaches ${f}`);
    const fullReach = lazyTargets(beyondCore(entry("methods")));
    assert.ok(
      serverReach.size < fullReach.size,
      `${revision}: server-side reaches ${serverReach.size} of ${fullReach.size} validator chunks`,
    );
  }
});

test.run();
