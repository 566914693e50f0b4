// The runtime is what users ship: its compiled JavaScript and the production dependencies it
// pulls in stay within a budget, so growth is a deliberate decision (raise the number in review).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const runtimeDir = join(root, "runtime");

/**
 * Bytes of compiled JavaScript in runtime/dist (declarations and maps excluded), comments
 * included. Raised from 240 KiB when the 2026-07-28 era landed beside the legacy one (both
 * lifecycles, MRTR on both sides, listen streams, the modern HTTP paths: about 290 KiB) and to
 * 384 KiB with the hardening limits (about 325 KiB), and to 392 KiB when the opt-in OAuth layer
 * landed (runtime/dist/auth, about 47 KiB, also held to its own budget below; total about 386 KiB),
 * and to 424 KiB with tasks (runtime/dist/tasks: the store, the 2026-07-28 extension on the server
 * and the client's task wait, about 23 KiB, plus their hooks; total about 416 KiB), and to 492 KiB
 * with the rest of tasks in both eras: the client side (2025-11-25 requestor and receiver, typed
 * task handles: about 25 KiB) and 2025-11-25 core tasks on the server (tasks/legacy.js,
 * tasks/shared.js, server/legacy-tasks.js: about 21 KiB), and lazy bindings (lazy-binding.ts and
 * the session's load gate, about 4 KiB: a server no longer loads the validators of revisions
 * nobody speaks, hundreds of KiB each); measured together after the merge: about 484 KiB; and to
 * 500 KiB when validators became per method (lazy-binding.ts, about 3.5 KiB more: per-method
 * records, loads and derived bindings; a connection loads only the validators of the methods it
 * sees): about 495 KiB.
 */
const RUNTIME_JS_BUDGET = 500 * 1024;
/** Bytes of the ESM entry files of every production dependency except authorization's. */
const DEPENDENCIES_BUDGET = 64 * 1024;
/**
 * Authorization (`@mcpgen/runtime/auth`) is opt-in: its OAuth library, oauth4webapi (one
 * dependency-free ESM file, ~18 KB gzipped), is imported by runtime/src/auth only (see
 * layering.test.ts), so the other entry points never load it. Budgets: the library, and the
 * compiled auth layer itself.
 */
const AUTH_DEPENDENCY = "oauth4webapi";
const AUTH_DEPENDENCY_BUDGET = 112 * 1024;
const AUTH_LAYER_BUDGET = 56 * 1024;

/**
 * The bundled revisions' protocol bindings (`@mcpgen/runtime/protocol/<rev>`, compiled from
 * mcpgen's generated/<rev>/: types, standalone validators, method tables) ship in the runtime
 * package but are not the runtime: a server loads only the revisions it imports. Each is held to
 * its own budget (largest today, 2025-11-25: about 743 KiB).
 */
const PROTOCOL_REVISION_BUDGET = 800 * 1024;

/**
 * The durable task store (`@mcpgen/runtime/tasks/sqlite`) is opt-in like authorization: its own
 * entry point, loaded only by servers that choose it, with its SQLite driver an optional peer
 * dependency (node:sqlite where Node has it). Held to its own budget (about 12 KiB today).
 */
const SQLITE_STORE_BUDGET = 16 * 1024;

/** Bytes of ESM JavaScript below `dir` (CommonJS twins, nested node_modules and `skip` left out). */
function jsBytes(dir: string, ...skip: string[]): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== "node_modules" && !skip.includes(p)) total += jsBytes(p, ...skip);
    } else if (name.endsWith(".js") || name.endsWith(".mjs")) total += statSync(p).size;
  }
  return total;
}

test("compiled runtime JavaScript stays within its budget", () => {
  const bytes = jsBytes(join(runtimeDir, "dist"), join(runtimeDir, "dist", "protocol"), join(runtimeDir, "dist", "tasks", "sqlite"));
  assert.ok(bytes > 10_000, `runtime/dist looks unbuilt (${bytes} bytes)`);
  assert.ok(bytes <= RUNTIME_JS_BUDGET, `runtime/dist has ${bytes} bytes of JavaScript, budget ${RUNTIME_JS_BUDGET}`);
});

test("each revision's protocol bindings stay within their own budget", () => {
  const revisions = readdirSync(join(runtimeDir, "dist", "protocol")).filter((n) => /^\d{4}-\d{2}-\d{2}$/.test(n));
  assert.ok(revisions.length > 0, "runtime/dist/protocol looks unbuilt");
  for (const rev of revisions) {
    const bytes = jsBytes(join(runtimeDir, "dist", "protocol", rev));
    assert.ok(bytes <= PROTOCOL_REVISION_BUDGET, `runtime/dist/protocol/${rev} has ${bytes} bytes of JavaScript, budget ${PROTOCOL_REVISION_BUDGET}`);
  }
});

test("production dependencies are few and small", () => {
  const pkg = JSON.parse(readFileSync(join(runtimeDir, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
  const deps = Object.keys(pkg.dependencies ?? {});
  assert.ok(deps.length <= 3, `runtime has ${deps.length} dependencies: ${deps.join(", ")}`);
  let bytes = 0;
  for (const dep of deps) {
    if (dep === AUTH_DEPENDENCY) continue;
    const dir = join(root, "node_modules", dep);
    const depPkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
    assert.equal(Object.keys(depPkg.dependencies ?? {}), [], `${dep} must not pull in dependencies of its own`);
    bytes += jsBytes(dir);
  }
  assert.ok(bytes <= DEPENDENCIES_BUDGET, `runtime dependencies have ${bytes} bytes of JavaScript, budget ${DEPENDENCIES_BUDGET}`);
});

test("authorization's library and layer stay within their budgets", () => {
  const dir = join(root, "node_modules", AUTH_DEPENDENCY);
  const depPkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
  assert.equal(Object.keys(depPkg.dependencies ?? {}), [], `${AUTH_DEPENDENCY} must not pull in dependencies of its own`);
  const lib = jsBytes(dir);
  assert.ok(lib <= AUTH_DEPENDENCY_BUDGET, `${AUTH_DEPENDENCY} has ${lib} bytes of JavaScript, budget ${AUTH_DEPENDENCY_BUDGET}`);
  const layer = jsBytes(join(runtimeDir, "dist", "auth")) + statSync(join(runtimeDir, "dist", "auth.js")).size;
  assert.ok(layer > 5_000, `runtime/dist/auth looks unbuilt (${layer} bytes)`);
  assert.ok(layer <= AUTH_LAYER_BUDGET, `runtime/dist/auth has ${layer} bytes of JavaScript, budget ${AUTH_LAYER_BUDGET}`);
});

test("the SQLite task store stays within its budget and its driver is never a dependency", () => {
  const bytes = jsBytes(join(runtimeDir, "dist", "tasks", "sqlite"));
  assert.ok(bytes > 3_000, `runtime/dist/tasks/sqlite looks unbuilt (${bytes} bytes)`);
  assert.ok(bytes <= SQLITE_STORE_BUDGET, `runtime/dist/tasks/sqlite has ${bytes} bytes of JavaScript, budget ${SQLITE_STORE_BUDGET}`);
  const pkg = JSON.parse(readFileSync(join(runtimeDir, "package.json"), "utf8")) as { dependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }> };
  assert.is(pkg.dependencies?.["better-sqlite3"], undefined);
  assert.equal(pkg.peerDependenciesMeta?.["better-sqlite3"], { optional: true });
});

test.run();
