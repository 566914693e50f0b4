// The runtime is what users ship: it must not reach into the generator or generated bindings, nor
// pull in build-time or SDK packages.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const src = join(root, "runtime", "src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** The package's own "imports" (`#http-driver`: the HTTP client's driver per host). */
const hostImports = new Set(
  Object.keys(
    (JSON.parse(readFileSync(join(root, "runtime", "package.json"), "utf8")) as { imports?: object }).imports ?? {},
  ),
);
const allowedBare = new Set(["eventsource-parser", "url-template", "oauth4webapi", "better-sqlite3", "redis"]);
/** Bare imports allowed only below a directory of runtime/src (authorization, the SQLite task store and the Redis stores are opt-in). */
const confinedTo: Record<string, string> = { oauth4webapi: "auth", "better-sqlite3": "tasks/sqlite", redis: "redis" };

test("runtime/src imports only itself, node built-ins and its declared dependencies", () => {
  const bad: string[] = [];
  for (const f of files(src)) {
    const text = readFileSync(f, "utf8");
    for (const m of text.matchAll(
      /(?:import|export)[^"'`;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g,
    )) {
      const spec = m[1] ?? m[2]!;
      const rel = relative(root, f);
      if (spec.startsWith(".")) {
        const target = relative(src, join(f, "..", spec));
        if (target.startsWith("..")) bad.push(`${rel}: ${spec} leaves runtime/src`);
      } else if (!spec.startsWith("node:") && !allowedBare.has(spec) && !hostImports.has(spec)) {
        bad.push(`${rel}: ${spec}`);
      } else if (confinedTo[spec] !== undefined && !relative(src, f).startsWith(`${confinedTo[spec]}/`)) {
        bad.push(`${rel}: ${spec} may only be imported below runtime/src/${confinedTo[spec]}`);
      }
    }
  }
  assert.equal(bad, []);
});

test("outside runtime/src/auth only the transport hook and the principal type reach the auth layer", () => {
  const bad: string[] = [];
  const seams = new Set(["auth/hook.js", "auth/principal.js"]);
  for (const f of files(src)) {
    const rel = relative(src, f);
    if (rel.startsWith("auth/") || rel === "auth.ts") continue;
    const text = readFileSync(f, "utf8");
    for (const m of text.matchAll(/(import(?:\s+type)?)[^"'`;]*?from\s*["']([^"']+)["']/g)) {
      const target = relative(src, join(f, "..", m[2]!))
        .split("\\")
        .join("/");
      if (!target.startsWith("auth/")) continue;
      if (!seams.has(target) && !/^import\s+type/.test(m[1]!)) bad.push(`${rel}: ${m[2]}`);
    }
  }
  assert.equal(bad, []);
  // The seams themselves pull in nothing, so the core entry points never load oauth4webapi.
  for (const seam of seams)
    assert.not.match(
      readFileSync(join(src, seam.replace(/\.js$/, ".ts")), "utf8"),
      /from\s*["']/,
      `${seam} imports something`,
    );
});

test.run();
