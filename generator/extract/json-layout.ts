/**
 * The manifest's JSON laid out exactly as prettier (parser "json", printWidth 120) prints it,
 * without loading prettier: its first call costs more than the whole extraction of a 50-tool
 * module. The rules are prettier's for JSON input that has no line breaks of its own: a group
 * goes on one line when it fits (the `,` after it included), else one entry per line; an array
 * of two or more objects that each have more than one key (or arrays of more than one
 * element) always breaks; an array of numbers that does not fit is filled line by line.
 * A test runs prettier over extracted manifests and expects no change.
 */
const WIDTH = 120;
const INDENT = "  ";

export function layoutJson(value: unknown): string {
  return print(value, 0, 0) + "\n";
}

/** `used`: columns already taken on the line where `value` starts, plus what must follow it (`,`). */
function print(value: unknown, depth: number, used: number): string {
  const flat = inline(value);
  if (typeof value !== "object" || value === null) return flat;
  const entries = Array.isArray(value) ? value : Object.entries(value);
  if (entries.length === 0) return flat;
  if (!mustBreak(value) && depth * INDENT.length + used + width(flat) <= WIDTH) return flat;
  const pad = INDENT.repeat(depth + 1);
  const close = INDENT.repeat(depth) + (Array.isArray(value) ? "]" : "}");
  if (Array.isArray(value) && value.every((v) => typeof v === "number")) return fill(value as number[], pad, close);
  const lines = entries.map((entry, i) => {
    const comma = i < entries.length - 1 ? 1 : 0;
    if (Array.isArray(value)) return pad + print(entry, depth + 1, comma);
    const [key, v] = entry as [string, unknown];
    const prefix = `${JSON.stringify(key)}: `;
    return pad + prefix + print(v, depth + 1, width(prefix) + comma);
  });
  return `${Array.isArray(value) ? "[" : "{"}\n${lines.join(",\n")}\n${close}`;
}

function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    return entries.length === 0
      ? "{}"
      : `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${inline(v)}`).join(", ")} }`;
  }
  return JSON.stringify(value);
}

/** Prettier's rule for arrays of several non-trivial objects or arrays: one per line. */
function mustBreak(value: object): boolean {
  if (!Array.isArray(value) || value.length < 2) return false;
  const isObject = (v: unknown) =>
    typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length > 1;
  const isArray = (v: unknown) => Array.isArray(v) && v.length > 1;
  return value.every(isObject) || value.every(isArray);
}

function fill(values: number[], pad: string, close: string): string {
  const lines: string[] = [];
  let line = "";
  values.forEach((v, i) => {
    const item = JSON.stringify(v) + (i < values.length - 1 ? "," : "");
    if (line !== "" && width(pad + line + " " + item) > WIDTH) {
      lines.push(pad + line);
      line = item;
    } else line = line === "" ? item : `${line} ${item}`;
  });
  lines.push(pad + line);
  return `[\n${lines.join("\n")}\n${close}`;
}

/** Columns as prettier counts them: wide East Asian characters take two. */
function width(text: string): number {
  let n = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    n +=
      (c >= 0x1100 && c <= 0x115f) ||
      (c >= 0x2e80 && c <= 0xa4cf) ||
      (c >= 0xac00 && c <= 0xd7a3) ||
      (c >= 0xf900 && c <= 0xfaff) ||
      (c >= 0xfe30 && c <= 0xfe4f) ||
      (c >= 0xff00 && c <= 0xff60) ||
      (c >= 0xffe0 && c <= 0xffe6) ||
      (c >= 0x1f300 && c <= 0x1faff) ||
      (c >= 0x20000 && c <= 0x3fffd)
        ? 2
        : 1;
  }
  return n;
}
