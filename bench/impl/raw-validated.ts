/**
 * The raw object pair (`rawobj`) running the validators mcpgen's in-process pair runs on each
 * call, and nothing else of a runtime: the server checks the 2026-07-28 `tools/call` params (with
 * the request `_meta` that era's clients send) and the tool's arguments, and the structured output
 * against its outputSchema; the client checks the result and, again, the structured output. The
 * validators are the runtime's 2026-07-28 ones and the bench manifest's generated tool validators;
 * the params are checked by the definition's whole validator, where mcpgen's server checks the
 * request `_meta`'s keys by hand (checkRequestMeta) and the rest with a validator leaving those out.
 * So `mcpgen / rawval` is what the runtime costs beyond validation, and `rawval / rawobj` what
 * validation alone costs.
 */
import type { Validator } from "@mcpgen/runtime";
import { validateCallToolRequestParams } from "@mcpgen/runtime/protocol/2026-07-28";
import * as clientSide from "@mcpgen/runtime/protocol/2026-07-28/client-side";
import type { Harness, HarnessOptions, Implementation } from "../harness.js";
import { CLIENT_INFO, SERVER_INFO, sumOf, type Variant } from "../workload.js";
import { createRawHandler, type Incoming } from "../servers/raw-handler.js";
import { objectPair } from "./raw.js";

interface CallValidators {
  params: Validator;
  input: Validator;
  output: Validator | null;
  result: Validator;
}

export async function validatorsOf(variant: Variant): Promise<CallValidators> {
  const tools =
    variant === "structured"
      ? await import("../add/structured/validators.js")
      : await import("../add/text/validators.js");
  const add = tools.toolValidators.add!;
  const result = await clientSide.validators.results["tools/call"]!();
  return { params: validateCallToolRequestParams, input: add.input, output: add.output, result: result.validate };
}

/** The `_meta` every 2026-07-28 request carries (what mcpgen's client sends). */
const REQUEST_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
};
/** The `_meta` every 2026-07-28 result carries. */
const RESULT_META = { "io.modelcontextprotocol/serverInfo": SERVER_INFO };

export function validatingHandler(variant: Variant, v: CallValidators): (message: Incoming) => object | undefined {
  const handle = createRawHandler(variant);
  return (message) => {
    if (message.method !== "tools/call") return handle(message);
    if (!v.params(message.params) || !v.input(message.params!.arguments)) {
      return { jsonrpc: "2.0", id: message.id, error: { code: -32602, message: "Invalid params" } };
    }
    const response = handle(message) as { result: Record<string, unknown> };
    // The handler's result is a fresh object per call: completing it in place copies nothing.
    response.result.resultType = "complete";
    response.result._meta = RESULT_META;
    if (v.output !== null && !v.output(response.result.structuredContent)) {
      return {
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32603, message: "Internal error: output does not match outputSchema" },
      };
    }
    return response;
  };
}

export const rawValidated: Implementation = {
  async inproc({ variant }: HarnessOptions): Promise<Harness> {
    const v = await validatorsOf(variant);
    const client = await objectPair(validatingHandler(variant, v));
    return {
      async call(a, b) {
        const result = (await client.request("tools/call", {
          name: "add",
          arguments: { a, b },
          _meta: REQUEST_META,
        })) as { structuredContent?: unknown };
        if (!v.result(result) || (v.output !== null && !v.output(result.structuredContent)))
          throw new Error("rawval: the result failed validation");
        return sumOf(result, variant);
      },
      async close() {},
    };
  },
};
