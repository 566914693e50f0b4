// The 2026-07-28 server's method table (`server-side/table`, what a generated server's bindings
// load) holds only the requests a client may send: a server with it answers every method exactly
// as a server with the revision's whole table does.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { lazyRevision, type MethodInfo } from "@mcpgen/runtime/internal";
import * as whole from "@mcpgen/runtime/protocol/2026-07-28/methods";
import * as serverSide from "@mcpgen/runtime/protocol/2026-07-28/server-side/table";
import { connect, definition, server } from "./fixture.js";

const HEAD = { revision: "2026-07-28", era: "modern", batching: false } as const;

test("the server's table is the whole table's requests a client may send, in its order", () => {
  const rows: [string, MethodInfo][] = Object.entries(whole.methods);
  const requests = rows.filter(([, m]) => m.kind === "request" && m.from !== "server");
  assert.ok(requests.length > 0);
  assert.equal(Object.entries(serverSide.methods), requests);
  assert.equal([serverSide.revision, serverSide.era, serverSide.batching], [whole.revision, whole.era, whole.batching]);
});

test("a server on the server's table answers every method as one on the whole table", async () => {
  const def = definition(["2026-07-28"]);
  const withWhole = server(
    { bindings: [lazyRevision(HEAD, () => import("@mcpgen/runtime/protocol/2026-07-28/methods"))] },
    def,
  );
  const withServerSide = server(
    {
      bindings: [
        lazyRevision(HEAD, async () => ({
          ...(await import("@mcpgen/runtime/protocol/2026-07-28/server-side/table")),
          validators: whole.validators,
        })),
      ],
    },
    def,
  );
  try {
    const a = await connect(withWhole);
    const b = await connect(withServerSide);
    // Notifications sent as requests, capability-gated requests (completions is not declared),
    // served ones, and names no table has.
    const methods = [...Object.keys(whole.methods), "tasks/get", "ping", "no/such"];
    for (const method of methods) {
      for (const params of [{}, { name: "echo", arguments: {} }]) {
        const { id: _a, ...expected } = await a.call(method, params);
        const { id: _b, ...got } = await b.call(method, params);
        assert.equal(got, expected, `${method} ${JSON.stringify(params)}`);
      }
    }
  } finally {
    await Promise.all([withWhole.close(), withServerSide.close()]);
  }
});

test.run();
