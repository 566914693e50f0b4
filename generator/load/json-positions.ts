/**
 * A strict JSON parser (RFC 8259) that also records where every value starts, keyed by its JSON
 * pointer, so diagnostics can say `mcp.manifest.json:12:7 /tools/3/name`. `JSON.parse` gives
 * neither positions for valid documents nor a stable error position across Node versions.
 */

import { escapePointerToken } from "../json-schema/pointer.js";
import { lineColumn } from "./json.js";

export interface Position {
  line: number; // 1-based
  column: number; // 1-based, in UTF-16 code units
}

export interface ParsedJson {
  value: unknown;
  /** Start of each value, by JSON pointer ("" is the root). */
  positions: Map<string, number>;
  /** Object keys that occur more than once in the same object (the last one wins, as in JSON.parse). */
  duplicateKeys: { pointer: string; offset: number }[];
  text: string;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = "JsonSyntaxError";
  }
}

export function positionAt(text: string, offset: number): Position {
  return lineColumn(text, offset);
}

export function parseJsonWithPositions(text: string): ParsedJson {
  const positions = new Map<string, number>();
  const duplicateKeys: ParsedJson["duplicateKeys"] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // tolerate a UTF-8 BOM

  const fail = (message: string, at = i): never => {
    throw new JsonSyntaxError(message, at);
  };
  const describe = (at: number) => (at >= text.length ? "end of input" : JSON.stringify(text[at]));

  const skipWs = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else return;
    }
  };

  const parseString = (): string => {
    const start = i;
    i++; // opening quote
    let out = "";
    let chunkStart = i;
    for (;;) {
      if (i >= text.length) fail("unterminated string", start);
      const c = text.charCodeAt(i);
      if (c === 34) {
        out += text.slice(chunkStart, i);
        i++;
        return out;
      }
      if (c < 0x20) fail("control character in string (escape it)");
      if (c === 92) {
        out += text.slice(chunkStart, i);
        const e = text[i + 1];
        const simple: Record<string, string> = {
          '"': '"',
          "\\": "\\",
          "/": "/",
          b: "\b",
          f: "\f",
          n: "\n",
          r: "\r",
          t: "\t",
        };
        if (e !== undefined && e in simple) {
          out += simple[e];
          i += 2;
        } else if (e === "u") {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("invalid \\u escape");
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else fail(`invalid escape \\${e ?? ""}`);
        chunkStart = i;
        continue;
      }
      i++;
    }
  };

  const parseValue = (pointer: string, depth: number): unknown => {
    if (depth > 10_000) fail("nesting too deep");
    skipWs();
    positions.set(pointer, i);
    const c = text[i];
    if (c === "{") {
      i++;
      const obj: Record<string, unknown> = {};
      const seen = new Set<string>();
      skipWs();
      if (text[i] === "}") {
        i++;
        return obj;
      }
      for (;;) {
        skipWs();
        if (text[i] !== '"') fail(`expected a property name in double quotes, found ${describe(i)}`);
        const keyAt = i;
        const key = parseString();
        const childPointer = `${pointer}/${escapePointerToken(key)}`;
        if (seen.has(key)) duplicateKeys.push({ pointer: childPointer, offset: keyAt });
        seen.add(key);
        skipWs();
        if (text[i] !== ":") fail(`expected ":" after property name, found ${describe(i)}`);
        i++;
        const v = parseValue(childPointer, depth + 1);
        // defineProperty so a "__proto__" key is data, never a prototype change
        Object.defineProperty(obj, key, { value: v, writable: true, enumerable: true, configurable: true });
        skipWs();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return obj;
        }
        fail(`expected "," or "}" in object, found ${describe(i)}`);
      }
    }
    if (c === "[") {
      i++;
      const arr: unknown[] = [];
      skipWs();
      if (text[i] === "]") {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(parseValue(`${pointer}/${arr.length}`, depth + 1));
        skipWs();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return arr;
        }
        fail(`expected "," or "]" in array, found ${describe(i)}`);
      }
    }
    if (c === '"') return parseString();
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m && m[0].length > 0 && m[0] !== "-") {
      i += m[0].length;
      return Number(m[0]);
    }
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return value;
      }
    }
    return fail(`unexpected ${describe(i)}, expected a JSON value`);
  };

  const value = parseValue("", 0);
  skipWs();
  if (i < text.length) fail(`unexpected ${describe(i)} after the end of the JSON value`);
  return { value, positions, duplicateKeys, text };
}
