// The in-memory defaults of the scale-out seams, held to the contract the Redis stores meet. (The
// change bus has no in-memory twin: one process delivers its changes itself.)
import { test } from "uvu";
import { MemoryNonceClaims } from "@mcpgen/runtime";
import { InMemoryEventStore } from "@mcpgen/runtime/http";
import { eventStoreContract, nonceClaimsContract } from "./shared-state-contract.js";

// The in-memory store's bound is across streams: with one stream in use it is the stream's.
eventStoreContract("memory", async (o) => new InMemoryEventStore({ maxEvents: o.maxEventsPerStream }));
nonceClaimsContract("memory", async () => new MemoryNonceClaims());

test.run();
