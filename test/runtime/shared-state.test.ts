// The in-memory defaults of the scale-out seams, held to the contract the Redis stores meet.
import { test } from "uvu";
import { MemoryChangeHub, MemoryNonceClaims } from "@mcpgen/runtime";
import { InMemoryEventStore } from "@mcpgen/runtime/http";
import { changeBusContract, eventStoreContract, nonceClaimsContract } from "./shared-state-contract.js";

// The in-memory store's bound is across streams: with one stream in use it is the stream's.
eventStoreContract("memory", async (o) => new InMemoryEventStore({ maxEvents: o.maxEventsPerStream }));
nonceClaimsContract("memory", async () => new MemoryNonceClaims());
const hub = new MemoryChangeHub();
changeBusContract("memory", async () => hub.attach());

test.run();
