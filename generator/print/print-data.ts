/**
 * Prints JSON data as a TypeScript/JavaScript expression laid out exactly as prettier (default
 * options) would print it, so data modules (list payloads) need no prettier pass: objects are
 * always expanded one property per line, arrays stay on one line when they fit and contain no
 * object, number arrays fill lines, keys are unquoted when they are identifiers, strings use the
 * quote that needs fewer escapes, trailing commas everywhere. Values registered in `refs` (by
 * object identity) print as the given identifier, so shared schemas are emitted once.
 */
import { isIdentifierName } from "../names/identifiers.js";
import { PRETTIER_DEFAULT_WIDTH } from "./indent.js";

export interface PrintDataOptions {
  width?: number;
  /** Objects to print as an identifier instead of inline. */
  refs?: ReadonlyMap<unknown, string>;
}

export function printString(s: string): string {
  const json = JSON.stringify(s);
  const doubles = (s.match(/"/g) ?? []).length;
  const singles = (s.match(/'/g) ?? []).length;
  if (doubles <= singles) return json;
  return `'${json.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

function printNumber(n: number): string {
  return JSON.stringify(n).replace("e+", "e");
}

function printKey(k: string): string {
  // a literal `__proto__:` (quoted or not; prettier unquotes it) would set the prototype instead
  // of defining a property; a computed key defines it
  if (k === "__proto__") return '["__proto__"]';
  return isIdentifierName(k) ? k : printString(k);
}

/**
 * `value` printed at `indent` (spaces of the line it starts on), where `prefix` characters
 * already precede it on that line and `suffix` follows it (",", ";").
 */
export function printData(value: unknown, options: PrintDataOptions = {}, indent = 0, prefix = 0, suffix = 1): string {
  const width = options.width ?? PRETTIER_DEFAULT_WIDTH;
  const refs = options.refs ?? new Map<unknown, string>();
  const pad = (n: number) => " ".repeat(n);

  const inline = (v: unknown): string | null => {
    if (refs.has(v)) return refs.get(v)!;
    if (v === null || typeof v === "boolean") return String(v);
    if (typeof v === "number") return printNumber(v);
    if (typeof v === "string") return printString(v);
    if (Array.isArray(v)) {
      const parts = v.map(inline);
      return parts.every((p): p is string => p !== null) ? `[${parts.join(", ")}]` : null;
    }
    if (typeof v === "object" && v !== null && Object.keys(v).length === 0) return "{}";
    return null; // non-empty objects are always expanded
  };

  const print = (v: unknown, ind: number, before: number, after: number): string => {
    const flat = inline(v);
    if (flat !== null && (!Array.isArray(v) || before + flat.length + after <= width)) return flat;
    if (Array.isArray(v)) {
      if (v.length > 0 && v.every((x) => typeof x === "number")) {
        // prettier "fills" number arrays: as many per line as fit
        const lines: string[] = [];
        let line = "";
        for (const x of v.map((n) => `${printNumber(n as number)},`)) {
          if (line && ind + 2 + line.length + 1 + x.length > width) {
            lines.push(line);
            line = x;
          } else line = line ? `${line} ${x}` : x;
        }
        lines.push(line);
        return `[\n${lines.map((l) => pad(ind + 2) + l).join("\n")}\n${pad(ind)}]`;
      }
      const items = v.map((x) => pad(ind + 2) + print(x, ind + 2, ind + 2, 1) + ",");
      return `[\n${items.join("\n")}\n${pad(ind)}]`;
    }
    const obj = v as { [key: string]: unknown };
    const lines = Object.keys(obj).map((k) => {
      const printedKey = printKey(k);
      const key = `${printedKey}: `;
      const value = obj[k];
      // prettier moves an overflowing string to the next line unless the key is shorter than
      // tabWidth + 3 (too little to gain)
      if (typeof value === "string" && !refs.has(value) && printedKey.length >= 5) {
        const str = printString(value);
        if (ind + 2 + key.length + str.length + 1 > width)
          return `${pad(ind + 2)}${printedKey}:\n${pad(ind + 4)}${str},`;
      }
      return `${pad(ind + 2)}${key}${print(value, ind + 2, ind + 2 + key.length, 1)},`;
    });
    return `{\n${lines.join("\n")}\n${pad(ind)}}`;
  };

  return print(value, indent, prefix, suffix);
}
