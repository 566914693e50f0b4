/**
 * The manifest's tool `examples` (calls `mcpgen verify` makes) checked against each tool's
 * `inputSchema` with the validators the generated server uses: an example the server would
 * reject as invalid arguments is an error in the manifest, not a finding about the server.
 */
import type { ServerModel } from "../../model/server-ir.js";
import { compileToolSchema } from "./validators.js";
import type { Problem } from "./schema-to-ts.js";

/** The part of a loaded manifest this reads: each tool's examples, by the tool's index. */
interface ToolExamples {
  readonly tools?: readonly { readonly examples?: readonly { readonly arguments?: unknown }[] }[];
}

export function checkToolExamples(manifest: ToolExamples, model: ServerModel): Problem[] {
  const problems: Problem[] = [];
  for (const tool of model.tools) {
    const examples = manifest.tools?.[tool.index]?.examples ?? [];
    if (examples.length === 0 || tool.inputFallback) continue;
    const { validate, errors } = compileToolSchema(tool.inputSchema, `${tool.pointer}/inputSchema`);
    examples.forEach((example, i) => {
      if (!validate(example.arguments)) {
        problems.push({
          severity: "error",
          pointer: `${tool.pointer}/examples/${i}/arguments`,
          message: `example does not satisfy the tool's inputSchema: ${errors()}`,
        });
      }
    });
  }
  return problems;
}
