// The bench's bundle step (bench/bundle.ts) runs in CI too, so a change that breaks it, or that
// pulls code a minimal server never needs into its bundle (the task machinery once did), fails
// here rather than in the next bench run. Sizes are bytes, not time: deterministic for a given
// esbuild and lock file.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { measureBundles, measureWorkerBundles } from "../../bench/bundle.js";

/**
 * gzip bytes of the one-tool stdio server in one file, every bundled revision: 52.9 kB when this
 * was written (57.7 kB while the task machinery was a runtime chunk every bundle carried). 55.5 kB
 * after the security work (sessions bound to principals, listen shares, running-request and
 * body-buffer byte budgets, peer answers over the limit failing their request) and stdio's drain
 * on end of input: the budget is 58 kB. 58.1 kB on 2026-11-27 after the host-neutral core (WebCrypto,
 * bytes.ts), the shared-state seams, the Skills seam and the legacy session record: 59 kB, still
 * under 0.56 of SDK v1's 105.3 kB. 50.9 kB once the protocol validators went lean (failures through
 * the runtime's issue helpers, instance paths built only on failure; generator/emit/ajv-lean.ts): 51 kB.
 */
const ONE_FILE_BUDGET = 51_000;

test("the one-tool server bundles within its budget, smaller than SDK v1's, and its split start holds no validator chunk", async () => {
  const b = await measureBundles();
  for (const s of [b.sdk1, b.all, b.one])
    assert.ok(s.single > 1000 && s.start > 0 && s.total >= s.start, JSON.stringify(s));
  assert.ok(b.all.single <= ONE_FILE_BUDGET, `one file: ${b.all.single} bytes gzip, budget ${ONE_FILE_BUDGET}`);
  assert.ok(b.one.single < b.all.single, "dropping revisions from the manifest drops them from the bundle");
  assert.ok(b.all.single < b.sdk1.single, `mcpgen ${b.all.single} against SDK v1 ${b.sdk1.single}`);
  assert.ok(b.all.start < b.all.session && b.all.session < b.all.total, "validators load after start, per session");
  assert.ok(b.all.chunks > 10, `${b.all.chunks} chunks: each revision's validators stay lazy`);
});

/**
 * gzip bytes of the one-tool server as a Worker (createFetchHandler, 2026-07-28 only): 51.5 kB
 * when this was written, against SDK v1's 109.0 kB and SDK v2's 79.1 kB on their web-standard
 * transports. The issue's target is 1/4 of SDK v1 (27 kB), not met yet: the runtime's core chunk
 * (stdio, both lifecycles, the facades) reaches a bundler as one module that esbuild does not
 * split, about 88 kB of its 189 kB minified. The budget holds what is there: 55 kB; 55.4 kB once the
 * Skills seam, the legacy session record and waitUntil for task runs merged: 56 kB. 49.4 kB (1/2.2)
 * once the legacy era reached the runtime only from a generated server listing a legacy revision
 * (ABI 8) and bundlers got the runtime per module (dist/esm/): 50 kB. 47.6 kB (1/2.3) once the
 * legacy era's side of HTTP (sessions, event store, HTTP+SSE) came only with the legacy era, 46.8
 * kB with the generated servers' per-method validators: 47 kB. 44.5 kB once `inputResponses` entries
 * were checked where a handler reads them (the params validators take a map of objects, so the
 * content-block and sampling validators left): 45 kB. 43.3 kB once the generated server handed the
 * runtime only the server features its manifest uses (no resource router, URI matching or
 * completion in a tools-only server): 43.5 kB. 39.7 kB once a manifest could say its handlers ask
 * the client nothing (`clientRequests: []`, which the bench's `add` manifest says), leaving the
 * MRTR code (input rounds, requestState, answer checks, `ctx.client`) out: 40 kB. On its own
 * branch, from 46.8 kB: 44.1 kB once the endpoint's legacy
 * requests (session POSTs, GET, DELETE, resumption) and the session transport came only with the
 * legacy era, a 2026-07-28 POST served on a transport of one POST: 44.5 kB. 43.6 kB once the scanner
 * of an oversized body POSTed to a live session came from the legacy side too: 44 kB. The two
 * merged: 36.3 kB: 36.5 kB.
 * The lean protocol validators, on a branch of their own: 46.2 kB (171.1 → 157.6 kB minified).
 * Those merged: 35.9 kB: 36 kB. The session split by role, on a branch of its own from 46.8 kB:
 * 44.7 kB (1/2.4) once the
 * 2026-07-28 server's session was the answering half alone (session/answering.ts: no outgoing
 * requests, pending map, deadlines, progress routing or batches), 44.6 kB once the handler
 * changes (setRequestHandler and the like, which only Session's users make) left it: 45 kB. All merged: 33.5 kB: 34 kB.
 * More of the server core came only with what uses it, on a branch of its own from 36.3 kB: 35.1 kB
 * (the MRTR run with the inputs feature, the 2026-07-28 task branch with the tasks extension, a
 * legacy connection's bookkeeping with the legacy era, resource routing and handlers with the
 * resources feature, and prompts as a feature of their own). All merged: 32.3 kB: 32.5 kB.
 * The lazy-init glue of esbuild's dynamic imports mostly gone (issue #26): the all-errors tool
 * validators on `@mcpgen/runtime/abi/v8/all-errors`, and `#on-first-use` static for bundlers
 * (the server's 2026-07-28 path, MRTR inputs, the client): 31.3 kB: 31.5 kB.
 * Issue #26's answering session, on a branch of its own from 31 409 B: batches and notification
 * handlers Session's alone, ModernServerSession an AnsweringSession rather than a wrapper of one:
 * 31 103 B: 31.25 kB.
 * The Mcp-Param-* check as the `toolHeaders` feature, handed over only when a tool names
 * x-mcp-header: 30.5 kB: 30.5 kB. The fetch host's own request plumbing smaller, the legacy
 * shape's session settings, event store and unreadable answers on the legacy side: 30.25 kB: 30.25 kB.
 * Validators, on a branch of their own from 31.4 kB (issue #26): each format's check its own ABI
 * export (the unused patterns left), the runtime's tool checks the all-errors validators
 * (`tool-validators.ts`: one compiled copy of the tool schemas), a map key escaped by
 * `abi.pointerToken`, schema constants read for error params narrowed to the value read, ajv's
 * type messages made on first use: 31.1 kB (31 058 B): 31.25 kB.
 * All three merged: 29 581 B: 30.0 kB.
 * The 2026-07-28 POST path's second pass (one request-id check, one JSON reply writer, the
 * HTTP+SSE mount's options and node's buffered-body read with the hosts that need them): 29 432 B: 29.5 kB.
 * A 2026-07-28 server's table of the requests a client may send, without the notification rows
 * (31.4 → 31.24 kB), lazy-binding's loadAll/sharedLoaders out of the class (31.15 kB), and the
 * generated server's protocol loaders static for bundlers (`@mcpgen/runtime/protocol/server-load`,
 * no lazy-init glue for them): 30.97 kB: 31.0 kB.
 * With the server table and loaders merged: 28 865 B: 29.0 kB.
 * Telling of changes as the `changes` server feature (a server announcing none carries no
 * broadcast and no listen delivery) and the listen checks in one helper: 28 658 B: 28.75 kB.
 * The third passes of 2026-11-27's last session, each on its own from 28 727 B: the session's (a
 * request's end in one place, connect's held messages waiting on the load itself) 28 664 B; the
 * server core's (what only the changes feature uses, the bus attachment, a raised change's sharing
 * and `log`, in it; the task machinery's start and the 2026-07-28 task parts in the tasks module;
 * resources/list's entries and the skills load out of ServerCore; a call that may become a task
 * getting the tasks module's own context; the client's MCP Apps reader through #on-first-use, whose
 * dynamic import had esbuild wrap jsonrpc, bytes and errors in lazy-init glue) 28 177 B; the HTTP
 * endpoint's (the legacy shape as EndpointWithLegacy, which only the legacy era's HTTP side makes;
 * a Request's URL read as a URL where rarely read; a Host header's whole match) 28 242 B; the
 * validators' (the params validators a 2026-07-28 server runs leave out of `_meta` what
 * checkRequestMeta checked before them; the all-errors tool validators' failures through
 * `abi.issue`; `anyOf` code with less bookkeeping; a recursive definition's function called as
 * itself) 28 342 B. Merged, with a stateless POST's whole-POST answer (a hang fixed): 27 279 B.
 * Generated as `mcpgen init --target workers` configures it (`"target": "workers"`: the generated
 * parts imported statically, no lazy-init glue for them): 27 095 B: 27.15 kB.
 */
const WORKER_BUDGET = 27_150;

/**
 * The runtime's modules of the legacy era: its lifecycle, the server's legacy side and the router of
 * both eras, and its side of HTTP (the session table, the session transport, the endpoint's legacy
 * requests and the endpoint that serves them, the event store, the 2024-11-05 HTTP+SSE transport),
 * which the fetch handler takes from the legacy era.
 */
const LEGACY_ERA_MODULES =
  /runtime\/dist\/esm\/(lifecycle\/legacy\/|server\/legacy\.js|server\/era-router\.js|http-server\/(sessions|session-transport|legacy-endpoint|endpoint-with-legacy|event-store|legacy-sse|legacy-http)\.js)/;

test("the one-tool Worker bundles within its budget, smaller than SDK v2's and SDK v1's, with no legacy revision in it", async () => {
  const w = await measureWorkerBundles();
  for (const n of [w.modern, w.all, w.sdk1, w.sdk2]) assert.ok(n > 1000, JSON.stringify(w));
  assert.ok(w.modern <= WORKER_BUDGET, `Worker: ${w.modern} bytes gzip, budget ${WORKER_BUDGET}`);
  assert.ok(w.modern < w.sdk2, `mcpgen ${w.modern} against SDK v2 ${w.sdk2}`);
  // Half of SDK v1 until 2026-11-27 (51.5 kB); the merges of that day (the Skills seam, the legacy
  // session takeover hooks, waitUntil) took it to 1/1.99 (54.9 kB of 109.0 kB), ABI 8 and the
  // per-module runtime to 1/2.2 (49.4 kB), the legacy era's HTTP side leaving it to 1/2.3 (47.6
  // kB; 46.8 kB with per-method validators), the passes since to issue #26's 1/4 (27.1 of 109.0 kB).
  assert.ok(w.modern * 4 <= w.sdk1, `mcpgen ${w.modern} against SDK v1 ${w.sdk1}: more than 1/4`);
  assert.ok(w.modern < w.all, "a server of 2026-07-28 alone drops the legacy revisions from its Worker");
  // A definition several revisions validate is one module in the folder of the first revision
  // using it (generate-bundled's sharing), so 2026-07-28's validators import some from legacy
  // folders: those are not a legacy revision's.
  const legacy = (inputs: string[]) =>
    inputs.filter(
      (f) =>
        /protocol-\d{4}-\d{2}-\d{2}|\/protocol\/20(24|25)-[^/]+\/(?!validators\/shared-)/.test(f) &&
        !f.includes("2026-07-28"),
    );
  assert.ok(
    legacy(w.allInputs).length > 0,
    "the every-revision Worker carries the legacy revisions (what the check below looks for)",
  );
  assert.equal(legacy(w.modernInputs), [], "no legacy revision's tables or validators");
  // Nor the legacy era's code (ABI 8): only the generated server of a manifest listing a legacy
  // revision hands it to the runtime, and bundlers get the runtime per module (dist/esm/).
  const legacyEra = (inputs: string[]) => inputs.filter((f) => LEGACY_ERA_MODULES.test(f));
  assert.ok(
    legacyEra(w.allInputs).length >= 4,
    `the every-revision Worker carries the legacy era: ${legacyEra(w.allInputs)}`,
  );
  // Its HTTP side too (the every-revision Worker serves legacy sessions where asked).
  const http = /http-server\/(sessions|event-store|legacy-sse)\.js/;
  assert.is(
    legacyEra(w.allInputs).filter((f) => http.test(f)).length,
    3,
    `the every-revision Worker carries the legacy sessions, event store and HTTP+SSE: ${legacyEra(w.allInputs)}`,
  );
  assert.equal(legacyEra(w.modernInputs), [], "no module of the legacy era");
  // Nor the server features a tools-only manifest leaves out (the generated server hands the
  // runtime only those its manifest uses): resource routing, URI template matching, completion,
  // (its manifest's `clientRequests` is empty) the code that gathers client input, and (no tool
  // argument is annotated x-mcp-header) the Mcp-Param-* check.
  const features =
    /runtime\/dist\/esm\/(server\/(resources|completion|inputs|input-client|elicit-check|header-params)\.js|uri-match\.js|lifecycle\/modern\/(mrtr|request-state|input-answers)\.js)/;
  assert.equal(
    w.modernInputs.filter((f) => features.test(f)),
    [],
    "no resource, completion, client input or Mcp-Param-* code",
  );
});

test.run();
