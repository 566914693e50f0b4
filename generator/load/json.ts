import { McpgenError } from "../errors.js";

/**
 * JSON.parse with an error that names the file, line and column. Node's own message does not
 * carry a line/column on every supported Node version, so on failure a small scanner finds the
 * offset of the first syntax error itself.
 */
export function parseJson(text: string, file: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch {
    const { offset, reason } = findSyntaxError(body);
    const { line, column } = lineColumn(body, offset);
    throw new McpgenError(`invalid JSON at line ${line} column ${column}: ${reason}`, { file });
  }
}

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

class Stop {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}
}

/** Offset and reason of the first JSON syntax error in `s` (RFC 8259 grammar). */
export function findSyntaxError(s: string): { offset: number; reason: string } {
  let i = 0;
  const describe = (at: number) => (at >= s.length ? "end of input" : `${JSON.stringify(s[at])}`);
  const fail = (reason: string): never => {
    throw new Stop(i, reason);
  };
  const ws = () => {
    while (i < s.length && (s[i] === " " || s[i] === "\t" || s[i] === "\n" || s[i] === "\r")) i++;
  };
  const literal = (word: string) => {
    if (s.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${JSON.stringify(s.slice(i, i + word.length))}, expected a JSON value`);
  };
  const string = () => {
    i++; // opening quote
    for (;;) {
      if (i >= s.length) fail("unterminated string");
      const c = s.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail("control character in string");
      if (c === 0x5c) {
        i++;
        const e = s[i];
        if (e === "u") {
          for (let k = 1; k <= 4; k++) {
            if (!/[0-9a-fA-F]/.test(s[i + k] ?? "")) {
              i += k;
              fail("invalid \\u escape in string");
            }
          }
          i += 5;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else fail("invalid escape in string");
      } else i++;
    }
  };
  const number = () => {
    if (s[i] === "-") i++;
    if (s[i] === "0") i++;
    else if (/[1-9]/.test(s[i] ?? "")) while (/[0-9]/.test(s[i] ?? "")) i++;
    else fail(`unexpected ${describe(i)} in number`);
    if (s[i] === ".") {
      i++;
      if (!/[0-9]/.test(s[i] ?? "")) fail("digit expected after decimal point");
      while (/[0-9]/.test(s[i] ?? "")) i++;
    }
    if (s[i] === "e" || s[i] === "E") {
      i++;
      if (s[i] === "+" || s[i] === "-") i++;
      if (!/[0-9]/.test(s[i] ?? "")) fail("digit expected in exponent");
      while (/[0-9]/.test(s[i] ?? "")) i++;
    }
  };
  const value = (depth: number): void => {
    if (depth > 10_000) fail("nesting too deep");
    ws();
    const c = s[i];
    if (c === "{") {
      i++;
      ws();
      if (s[i] === "}") return void i++;
      for (;;) {
        ws();
        if (s[i] !== '"') fail(`expected a property name in double quotes, found ${describe(i)}`);
        string();
        ws();
        if (s[i] !== ":") fail(`expected ':' after property name, found ${describe(i)}`);
        i++;
        value(depth + 1);
        ws();
        if (s[i] === ",") {
          i++;
          continue;
        }
        if (s[i] === "}") return void i++;
        fail(`expected ',' or '}' after property value, found ${describe(i)}`);
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (s[i] === "]") return void i++;
      for (;;) {
        value(depth + 1);
        ws();
        if (s[i] === ",") {
          i++;
          continue;
        }
        if (s[i] === "]") return void i++;
        fail(`expected ',' or ']' after array element, found ${describe(i)}`);
      }
    }
    if (c === '"') return string();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return number();
    fail(`unexpected ${describe(i)}, expected a JSON value`);
  };
  try {
    value(0);
    ws();
    if (i < s.length) fail(`unexpected ${describe(i)} after the JSON value`);
  } catch (e) {
    if (e instanceof Stop) return { offset: e.offset, reason: e.reason };
    throw e;
  }
  return { offset: 0, reason: "not valid JSON" };
}
