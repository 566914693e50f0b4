/**
 * A hostile server's answers: for each request, valid results, mutated ones, wrong or unusable
 * ids, deep and oversized lines, duplicates, silence, and unsolicited notifications and requests.
 * `ping` is always answered properly: it is the probe that valid traffic still works.
 */
import { deepLine, mutateMessage, pick, strangeId, value, type Rng } from "./mutate.js";
import { serverShapes, type Json } from "./seeds.js";

export const INIT_RESULT = {
  protocolVersion: "2025-11-25",
  capabilities: { tools: {}, resources: { subscribe: true }, prompts: {}, logging: {} },
  serverInfo: { name: "hostile", version: "0" },
};

function validResult(method: string): Json {
  switch (method) {
    case "tools/list":
      return {
        tools: [
          { name: "ok", inputSchema: { type: "object" } },
          { name: "broken", inputSchema: { properties: {} } },
        ],
      };
    case "tools/call":
      return { content: [{ type: "text", text: "fine" }] };
    case "resources/read":
      return { contents: [{ uri: "a://b", text: "x" }] };
    case "prompts/list":
      return { prompts: [] };
    default:
      return {};
  }
}

function line(m: unknown): string {
  try {
    return JSON.stringify(m);
  } catch {
    return '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"unserialisable"}}';
  }
}

/** Lines (without LF) to send in answer to one request; `big` is a size just over the client's frame cap. */
export function hostileAnswer(r: Rng, req: { id: Json; method: string }, big: number): string[] {
  const id = req.id;
  if (req.method === "initialize") return [line({ jsonrpc: "2.0", id, result: INIT_RESULT })];
  if (req.method === "ping") return [line({ jsonrpc: "2.0", id, result: {} })];
  const out: string[] = [];
  while (r() < 0.25) out.push(unsolicited(r));
  const roll = r();
  if (roll < 0.3) out.push(line({ jsonrpc: "2.0", id, result: validResult(req.method) }));
  else if (roll < 0.5) {
    const m = mutateMessage(r, {
      ...pick(
        r,
        serverShapes.filter((s) => "id" in s && !("method" in s)),
      ),
      id: id as never,
    });
    out.push(line(m), line({ jsonrpc: "2.0", id, result: validResult(req.method) }));
  } else if (roll < 0.6)
    out.push(
      line({
        jsonrpc: "2.0",
        id,
        error: {
          code: pick(r, [-32603, -1, "x", 1.5, null]),
          message: pick<Json>(r, ["no", "m".repeat(100_000), null, [1, [2]], {}]),
          data: value(r),
        },
      }),
    );
  else if (roll < 0.68) out.push(deepLine(r, id as string | number, 50_000));
  else if (roll < 0.73)
    out.push(
      `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"${"z".repeat(big)}"}]}}`,
    );
  else if (roll < 0.78)
    out.push(
      line({ jsonrpc: "2.0", id: strangeId(r), result: {} }),
      line({ jsonrpc: "2.0", id, result: validResult(req.method) }),
    );
  else if (roll < 0.83)
    out.push(
      line({ jsonrpc: "2.0", id, result: validResult(req.method) }),
      line({ jsonrpc: "2.0", id, result: validResult(req.method) }),
    );
  else if (roll < 0.86) {
    // silence: the request must time out, not hang
  } else
    out.push(
      pick(r, ["{oops", "", "[]", "null", '{"jsonrpc":"2.0"}', "\u00ff\u00fe"]),
      line({ jsonrpc: "2.0", id, result: validResult(req.method) }),
    );
  return out;
}

export function unsolicited(r: Rng): string {
  if (r() < 0.3) return deepLine(r, "s", 20_000);
  return line(mutateMessage(r, pick(r, serverShapes)));
}
