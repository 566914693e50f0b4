/** Tool arguments made up from a listed tool's input schema, for calling tools we know nothing else about. */

export interface Tool {
  name: string;
  inputSchema?: { properties?: Record<string, { type?: string } | undefined>; required?: string[] };
}

/** 1, 2, ... for numbers and integers, "test" for strings, true for booleans; other types are left out. */
export function sampleArguments(tool: Tool): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  let n = 0;
  for (const [name, prop] of Object.entries(tool.inputSchema?.properties ?? {})) {
    const t = prop?.type;
    if (t === "number" || t === "integer") args[name] = ++n;
    else if (t === "string") args[name] = "test";
    else if (t === "boolean") args[name] = true;
  }
  return args;
}
