/** The mark of results built with `toolResult` / `toolError` (results.ts), so a plain object is always structured output. */
export const resultBrand: unique symbol = Symbol.for("mcpgen.toolResult") as never;
