/**
 * What the generated `tool-validators.ts` makes the tools' checks of: the all-errors tool
 * validators, which on a valid value do what the first-failure ones do. Only the
 * `@mcpgen/runtime/abi/v8/all-errors` entry exports it, so Node's core (a stdio server's start)
 * does not carry it.
 */
import { TooManyIssues } from "./ajv-runtime.js";
import type { Validator } from "./protocol-binding.js";

/** A tool's validators (server/types.ts `ToolValidators`, repeated: this module imports nothing it would pull into a bundle). */
type ToolChecks = {
  readonly [tool: string]: {
    readonly input: Validator;
    readonly output: Validator | null;
    readonly defaults?: (input: never) => unknown;
  };
};

/**
 * All-errors validators as the ones a tool's values are checked with (the generated
 * `tool-validators.ts`): on a valid value they do what the first-failure ones do, so one compiled
 * copy of the schemas serves both the check and its report. Each gives the same result with every
 * failure in `errors`; where it would throw TooManyIssues it refuses with what it collected, and the
 * report (issues.ts `collectIssues`, which runs `all` itself) says how many it could not list.
 */
export function collectingValidators(all: ToolChecks): ToolChecks {
  const out: Record<string, ToolChecks[string]> = {};
  for (const tool of Object.keys(all)) {
    const v = all[tool]!;
    out[tool] = { ...v, input: collecting(v.input), output: v.output === null ? null : collecting(v.output) };
  }
  return out;
}

function collecting(all: Validator): Validator {
  const check = ((data: unknown): boolean => {
    try {
      const valid = all(data);
      check.errors = all.errors;
      return valid;
    } catch (e) {
      if (!(e instanceof TooManyIssues)) throw e;
      check.errors = e.issues;
      return false;
    }
  }) as Validator;
  return check;
}
