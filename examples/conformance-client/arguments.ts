/** Tool arguments made up from a listed tool's input schema, for calling tools we know nothing else about. */

/** The part of a listed tool this needs; the generated `Tool` type fits it. */
export interface ToolLike {
  name: string;
  inputSchema?: { properties?: Readonly<Record<string, object>> };
}

/** 1, 2, ... for numbers and integers, "test" for strings, true for booleans; other types are left out. */
export function sampleArguments(tool: ToolLike): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  let n = 0;
  for (const [name, prop] of Object.entries(tool.inputSchema?.properties ?? {})) {
    const t = prop !== null && typeof prop === "object" ? (prop as { type?: unknown }).type : undefined;
    if (t === "number" || t === "integer") args[name] = ++n;
    else if (t === "string") args[name] = "test";
    else if (t === "boolean") args[name] = true;
  }
  return args;
}
