/** Tool arguments made up from a listed tool's input schema, for calling tools we know nothing else about. */

/** The part of a listed tool this needs; the generated and the runtime `Tool` types fit it. */
export interface ToolLike {
  name: string;
  inputSchema?: object;
}

/** 1, 2, ... for numbers and integers, "test" for strings, true for booleans; other types are left out. */
export function sampleArguments(tool: ToolLike): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const props = (tool.inputSchema as { properties?: unknown } | undefined)?.properties;
  if (props === null || typeof props !== "object") return args;
  let n = 0;
  for (const [name, prop] of Object.entries(props)) {
    const t = prop !== null && typeof prop === "object" ? (prop as { type?: unknown }).type : undefined;
    if (t === "number" || t === "integer") args[name] = ++n;
    else if (t === "string") args[name] = "test";
    else if (t === "boolean") args[name] = true;
  }
  return args;
}
