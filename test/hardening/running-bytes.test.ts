// Memory held by running requests is bounded in bytes, not only by count: the "everything" example
// with its default limits, over real HTTP (127.0.0.1) behind an OAuth resource server trusting a
// local JWT issuer. A client opening 2026-07-28 listens whose `_meta` parses into some 20 MiB each
// (a mebibyte of small objects) inside its legacy session is refused at its session's share
// (-32000, runningBytes.perSession) after a few, while the heap grows by about that share only;
// another principal's session is still served, and the share comes back when the listens' streams
// close. One principal spreading such listens over many sessions (legacy sessions and stateless
// 2026-07-28 POSTs alike) is refused at its principal's share (runningBytes.perPrincipal, a
// quarter of the server's pool), while another principal is still served.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createStreamableHttpHandler } from "@mcpgen/runtime/http";
import { createResourceServer, jwtVerifier } from "@mcpgen/runtime/auth";
import { limits } from "@mcpgen/runtime";
import { createServer } from "../../examples/everything/src/server.js";
import { startIssuer } from "../runtime/auth/jwt-issuer.js";
import { waitFor } from "../runtime/transports/helpers.js";
import {
  acknowledged,
  fullGc,
  legacySession,
  modernHeaders,
  openListen,
  refusal,
} from "../runtime/modern/listen-http.js";

const stops: (() => Promise<void>)[] = [];
test.after.each(async () => {
  for (const f of stops.splice(0).reverse()) await f();
});

const MiB = 1024 * 1024;
const PER_SESSION = limits.MAX_RUNNING_BYTES_PER_SESSION;
const PER_PRINCIPAL = limits.MAX_RUNNING_BYTES_PER_PRINCIPAL;

async function start() {
  const issuer = await startIssuer();
  stops.push(() => issuer.close());
  const everything = createServer({ onerror: () => {} });
  const box: { handle?: (req: never, res: never) => void } = {};
  const server = createHttpServer((req, res) => box.handle!(req as never, res as never));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  const auth = createResourceServer({
    resource: url.href,
    authorizationServers: [issuer.issuer],
    verifier: jwtVerifier({ issuer: issuer.issuer, jwksUri: issuer.jwksUri, audience: url.href }),
  });
  const http = createStreamableHttpHandler({
    onsession: (t) => everything.connect(t).then(() => {}),
    auth,
    keepAliveMs: 0,
    onerror: () => {},
  });
  box.handle = (req, res) => http.handle(req, res);
  stops.push(async () => {
    await everything.close();
    await http.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const bearer = (sub: string) => `Bearer ${issuer.token({ sub, client_id: "app", aud: url.href })}`;
  return { everything, url, bearer };
}

test("listens with a large _meta are refused at the session's byte share (runningBytes.perSession), memory stays near it, another principal is served, the share returns when their streams close", async () => {
  const { everything, url, bearer } = await start();
  const alice = await legacySession(url, bearer("alice"));
  // A mebibyte of `{}`: over 20 MiB once parsed, and held for as long as the listen is open.
  const junk = Array.from({ length: MiB / 3 }, () => ({}));
  fullGc();
  const base = process.memoryUsage().heapUsed;
  const open = [];
  let refused;
  for (let i = 0; i < 12 && refused === undefined; i++) {
    const st = await openListen(url, alice, 100 + i, { toolsListChanged: true }, { junk });
    if (acknowledged(st)) open.push(st);
    else refused = st;
  }
  assert.ok(refused !== undefined, `a listen of the flood is refused (${open.length} open)`);
  assert.equal(refusal(refused)?.data, { limit: "runningBytes.perSession", max: PER_SESSION });
  assert.is(refusal(refused)?.code, -32000);
  assert.ok(open.length >= 1 && open.length <= 4, `${open.length} listens open before the refusal`);
  assert.is(everything.listens.size, open.length);
  fullGc();
  const held = process.memoryUsage().heapUsed - base;
  assert.ok(held > open.length * 10 * MiB, `the open listens hold their requests (${(held / MiB).toFixed(1)} MiB)`);
  assert.ok(held < 1.5 * PER_SESSION, `memory stays near the session's share: ${(held / MiB).toFixed(1)} MiB held`);

  // Another principal, in a session of its own, is served.
  const bob = await legacySession(url, bearer("bob"));
  const alices = everything.runningBytes.used;
  assert.ok(
    alices > PER_SESSION / 2 && alices <= PER_SESSION,
    `alice's listens are charged up to her share (${alices} bytes)`,
  );
  const other = await openListen(url, bob, 1);
  assert.ok(acknowledged(other), "another principal's listen opens");
  const bobs = everything.runningBytes.used - alices;

  for (const st of open) st.close();
  open.length = 0;
  await waitFor(() => everything.listens.size === 1, 2000, "the dropped listens to end");
  assert.ok(
    everything.runningBytes.used === bobs,
    `only bob's listen is charged (${everything.runningBytes.used} bytes, bob's ${bobs})`,
  );
  fullGc();
  const left = process.memoryUsage().heapUsed - base;
  assert.ok(
    left < held / 4,
    `what the listens held is released (${(left / MiB).toFixed(1)} of ${(held / MiB).toFixed(1)} MiB left)`,
  );
  // Alice's share is hers again.
  const again = await openListen(url, alice, 200, { toolsListChanged: true }, { junk });
  assert.ok(acknowledged(again), "the session's share is free again");
  again.close();
  other.close();
  await waitFor(
    () => everything.listens.size === 0 && everything.runningBytes.used === 0,
    2000,
    "every listen to end and its charge to go",
  );
});

test("one principal's listens over many sessions are refused at its share (runningBytes.perPrincipal), memory stays near it, another principal is served, the share returns when they close", async () => {
  const { everything, url, bearer } = await start();
  const alice = { clientId: "app", subject: "alice" };
  // Eight sessions, none holding more than two listens of about 20 MiB: each stays within its own share.
  const sessions = [];
  for (let i = 0; i < 8; i++) sessions.push(await legacySession(url, bearer("alice")));
  const junk = Array.from({ length: MiB / 3 }, () => ({}));
  fullGc();
  const base = process.memoryUsage().heapUsed;
  const open = [];
  let refused;
  for (let i = 0; i < 16 && refused === undefined; i++) {
    const st = await openListen(url, sessions[i % sessions.length]!, 100 + i, { toolsListChanged: true }, { junk });
    if (acknowledged(st)) open.push(st);
    else refused = st;
  }
  assert.ok(refused !== undefined, `a listen of the flood is refused (${open.length} open)`);
  assert.equal(refusal(refused)?.data, { limit: "runningBytes.perPrincipal", max: PER_PRINCIPAL });
  assert.is(refusal(refused)?.code, -32000);
  assert.ok(open.length >= 4 && open.length <= 8, `${open.length} listens open before the refusal`);
  const alices = everything.runningBytes.principalUsed(alice);
  assert.ok(
    alices > PER_PRINCIPAL / 2 && alices <= PER_PRINCIPAL,
    `alice's listens are charged up to her share (${alices} bytes)`,
  );
  assert.is(everything.runningBytes.used, alices);
  fullGc();
  const held = process.memoryUsage().heapUsed - base;
  assert.ok(held < 1.5 * PER_PRINCIPAL, `memory stays near the principal's share: ${(held / MiB).toFixed(1)} MiB held`);
  // A stateless 2026-07-28 POST is a session of its own, and still alice's.
  const stateless = await openListen(url, modernHeaders(bearer("alice")), 1, { toolsListChanged: true }, { junk });
  assert.equal(refusal(stateless)?.data, { limit: "runningBytes.perPrincipal", max: PER_PRINCIPAL });

  // Another principal is served, a large listen included, in a legacy session and statelessly.
  const bob = await legacySession(url, bearer("bob"));
  const others = [
    await openListen(url, bob, 1, { toolsListChanged: true }, { junk }),
    await openListen(url, modernHeaders(bearer("bob")), 2, { toolsListChanged: true }, { junk }),
  ];
  assert.ok(others.every(acknowledged), "another principal's listens open");
  const bobs = everything.runningBytes.principalUsed({ clientId: "app", subject: "bob" });
  assert.ok(bobs > 0 && everything.runningBytes.used === alices + bobs);

  for (const st of open) st.close();
  open.length = 0;
  await waitFor(() => everything.listens.size === 2, 2000, "alice's dropped listens to end");
  assert.equal([everything.runningBytes.principalUsed(alice), everything.runningBytes.used], [0, bobs]);
  // Alice's share is hers again.
  const again = await openListen(url, sessions[0]!, 200, { toolsListChanged: true }, { junk });
  assert.ok(acknowledged(again), "the principal's share is free again");
  again.close();
  for (const st of others) st.close();
  await waitFor(
    () => everything.listens.size === 0 && everything.runningBytes.used === 0,
    2000,
    "every listen to end and its charge to go",
  );
});

test.run();
