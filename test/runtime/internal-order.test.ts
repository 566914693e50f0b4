// The runtime's internal order: every room of runtime/src (a folder, or a file at its root) stands
// on a floor, and a file imports from its own floor or below, never from above, and no two rooms of
// one floor import each other round in a circle. No file imports itself back through others either
// (type-only imports included: a cycle of types is as hard to read and to move as one of values).
//
// Run with MCPGEN_PRINT_LAYERS=1 (node dist/test/runtime/internal-order.test.js) to print every
// back-arrow, with the file imports behind it, and every import cycle.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { importCycles, importGraph, type ImportGraph } from "./helpers/import-graph.js";

const src = fileURLToPath(new URL("../../../runtime/src/", import.meta.url));

/**
 * Floors, lowest first. A room is a folder (ending in "/") or a file of runtime/src; a file
 * belongs to the room of the longest prefix that names it.
 */
const FLOORS: readonly { readonly floor: string; readonly rooms: readonly string[] }[] = [
  // What everything may use: JSON-RPC shapes, limits, describing values for messages, the wire
  // types, the generated-code ABI and its lazy bindings, validation failure reports, typed errors,
  // URI templates, and auth
  // (self-contained; only its hook and principal type are seen from outside, see layering.test.ts).
  {
    floor: "base",
    rooms: [
      "jsonrpc.ts",
      "limits.ts",
      "http-exchange.ts",
      "bytes.ts",
      "after-io.ts",
      "node-builtin.ts",
      "describe.ts",
      "node-http.ts",
      "uri-match.ts",
      "uri-template.ts",
      "wire/",
      "mcp-types.ts",
      "request-id.ts",
      "protocol-binding.ts",
      "abi.ts",
      "ajv-runtime.ts",
      "collecting-validators.ts",
      "lazy-binding.ts",
      "issues.ts",
      "issue-sites.ts",
      "errors.ts",
      "auth/",
    ],
  },
  // Bytes to messages: NDJSON and SSE framing, scanning for ids and sizes, frame errors.
  { floor: "framing", rooms: ["framing/"] },
  // Moving whole messages: the Transport interface and the in-memory and stdio transports.
  { floor: "transport", rooms: ["transport.ts", "transports/"] },
  // Correlation of one connection, both sides, every era: ids, pending requests, deadlines, budgets.
  { floor: "session", rooms: ["session/"] },
  // What both protocol eras share: implementation and capability objects, handler tables.
  { floor: "era-neutral lifecycle", rooms: ["lifecycle/common/"] },
  // The two protocol eras' lifecycles side by side.
  { floor: "lifecycle", rooms: ["lifecycle/legacy/", "lifecycle/modern/"] },
  // Tasks of both eras, their stores; handed what they need by the server and the client.
  { floor: "tasks", rooms: ["tasks/"] },
  // The server and the client, and each one's HTTP side.
  { floor: "roles", rooms: ["server/", "client/", "http-server/", "http-client/", "redis/"] },
  // The package's entry points (runtime/package.json "exports"), wherever they live.
  {
    floor: "entries",
    rooms: [
      "index.ts",
      "internal.ts",
      "abi/",
      // `#on-first-use` (runtime/package.json "imports"): what the roles and the facades load on first use
      "on-first-use/",
      "core.ts",
      "facades.ts",
      "stdio.ts",
      "http.ts",
      "http-client.ts",
      "fetch.ts",
      "node.ts",
      "auth/server.ts",
      "auth.ts",
      "auth-client.ts",
      "tasks/server.ts",
      "redis.ts",
      "skills/server.ts",
      "skills/client.ts",
    ],
  },
];

/** Back-arrows still tolerated ("from room -> to room"), each with why; at most two. */
const ALLOWED: Readonly<Record<string, string>> = {};

const floorOf = new Map<string, number>();
FLOORS.forEach((f, i) => f.rooms.forEach((r) => floorOf.set(r, i)));

function roomOf(file: string): string | undefined {
  let best: string | undefined;
  for (const room of floorOf.keys()) {
    const fits = room.endsWith("/") ? file.startsWith(room) : file === room;
    if (fits && (best === undefined || room.length > best.length)) best = room;
  }
  return best;
}

interface Arrow {
  readonly from: string;
  readonly to: string;
  /** The file imports behind it. */
  readonly imports: string[];
}

/** Room -> room arrows with the file imports behind each. */
function roomArrows(graph: ImportGraph): Map<string, Arrow> {
  const arrows = new Map<string, Arrow>();
  for (const [file, targets] of graph) {
    const from = roomOf(file);
    for (const target of targets) {
      const to = roomOf(target);
      if (from === undefined || to === undefined || from === to) continue;
      const key = `${from} -> ${to}`;
      let a = arrows.get(key);
      if (a === undefined) arrows.set(key, (a = { from, to, imports: [] }));
      a.imports.push(`${file} -> ${target}`);
    }
  }
  return arrows;
}

/**
 * Arrows against the order: to a higher floor, or between rooms of one floor that import each other
 * round in a circle (every arrow of that circle: neither room is below the other).
 */
function backArrows(arrows: Map<string, Arrow>): Arrow[] {
  const up = [...arrows.values()].filter((a) => floorOf.get(a.from)! < floorOf.get(a.to)!);
  const level = new Map<string, string[]>();
  for (const a of arrows.values()) {
    if (floorOf.get(a.from) !== floorOf.get(a.to)) continue;
    level.set(a.from, [...(level.get(a.from) ?? []), a.to]);
    if (!level.has(a.to)) level.set(a.to, []);
  }
  const tangled = importCycles(level).map((rooms) => new Set(rooms));
  const circles = [...arrows.values()].filter(
    (a) => floorOf.get(a.from) === floorOf.get(a.to) && tangled.some((c) => c.has(a.from) && c.has(a.to)),
  );
  return [...up, ...circles].sort((a, b) => (`${a.from} -> ${a.to}` < `${b.from} -> ${b.to}` ? -1 : 1));
}

const graph = importGraph(src);
const arrows = backArrows(roomArrows(graph));
const cycles = importCycles(graph);

if (process.env.MCPGEN_PRINT_LAYERS) {
  const lines = [`runtime/src: ${graph.size} files, ${arrows.length} back-arrows, ${cycles.length} import cycles`];
  for (const a of arrows)
    lines.push(
      `back-arrow ${a.from} -> ${a.to} (${FLOORS[floorOf.get(a.from)!]!.floor} -> ${FLOORS[floorOf.get(a.to)!]!.floor})`,
      ...a.imports.map((i) => `    ${i}`),
    );
  for (const c of cycles) lines.push(`cycle of ${c.length} files: ${c.join(" ")}`);
  console.log(lines.join("\n"));
}

test("every file of runtime/src is in a room of the order, and every room of the order exists", () => {
  const homeless = [...graph.keys()].filter((f) => roomOf(f) === undefined);
  assert.equal(homeless, [], "give these a room in FLOORS");
  const files = [...graph.keys()];
  const empty = [...floorOf.keys()].filter((r) => !files.some((f) => (r.endsWith("/") ? f.startsWith(r) : f === r)));
  assert.equal(empty, [], "rooms of FLOORS with no file");
  const unresolved = [...graph].flatMap(([f, ts]) => ts.filter((t) => !graph.has(t)).map((t) => `${f} -> ${t}`));
  assert.equal(unresolved, [], "imports of files that do not exist");
});

test("no back-arrow between the runtime's rooms beyond the allowed ones", () => {
  assert.ok(Object.keys(ALLOWED).length <= 2, "at most two back-arrows may be tolerated");
  const found = arrows.map((a) => `${a.from} -> ${a.to}`);
  const unexpected = arrows.filter((a) => ALLOWED[`${a.from} -> ${a.to}`] === undefined);
  assert.equal(
    unexpected.map((a) => `${a.from} -> ${a.to}: ${a.imports.join(", ")}`),
    [],
  );
  const gone = Object.keys(ALLOWED).filter((k) => !found.includes(k));
  assert.equal(gone, [], "arrows allowed that no longer occur: drop them from ALLOWED");
});

test("no import cycle in runtime/src, type-only imports included", () => {
  assert.equal(cycles, []);
});

test("the cycle finder and the order find what they should on made-up graphs", () => {
  const g = new Map([
    ["a.ts", ["b.ts"]],
    ["b.ts", ["c.ts", "d.ts"]],
    ["c.ts", ["a.ts"]],
    ["d.ts", []],
    ["e.ts", ["e.ts", "d.ts"]],
  ]);
  assert.equal(importCycles(g), [["a.ts", "b.ts", "c.ts"]]);
  assert.is(roomOf("lifecycle/modern/wire.ts"), "lifecycle/modern/");
  assert.is(roomOf(join("nowhere", "x.ts")), undefined);
  const tangled = new Map([
    ["framing/scan.ts", ["session/x.ts"]],
    ["session/x.ts", ["framing/scan.ts"]],
    ["server/a.ts", ["client/b.ts"]],
    ["client/b.ts", ["server/a.ts", "tasks/d.ts"]],
    ["client/c.ts", ["server/a.ts"]],
    ["tasks/d.ts", ["jsonrpc.ts"]],
    ["jsonrpc.ts", []],
  ]);
  assert.equal(
    backArrows(roomArrows(tangled)).map((a) => `${a.from} -> ${a.to}`),
    ["client/ -> server/", "framing/ -> session/", "server/ -> client/"],
  );
});

test.run();
