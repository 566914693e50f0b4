/**
 * Matching URIs against RFC 6570 URI templates (the inverse of expansion, which uri-template.ts
 * does through `url-template`): a regular expression compiled from the template. No well-kept
 * library inverts templates, and inversion is only sound where expansion is invertible: simple,
 * `/`, `.`, `;`, `?`, `&` expressions (values are percent-encoded, so the operator's separators
 * cannot occur inside them) and one-variable `+` / `#` expressions. The generator warns about the
 * other shapes (multi-variable `+`/`#`/`/` lists, prefix modifiers).
 *
 * A server routes `resources/read` by matching only, so this module imports nothing: a stdio
 * server does not load `url-template` at start (docs/bundling.md).
 */
export interface UriMatcher {
  readonly template: string;
  /** Distinct variable names in order of first appearance. */
  readonly variables: readonly string[];
  /** The variables a URI was expanded from, or null when the template cannot produce it. */
  match(uri: string): Record<string, string | string[]> | null;
}

interface Capture {
  operator: string;
  names: { name: string; explode: boolean }[];
}

const OPERATORS = "+#./;?&";

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function decode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/** Regex source of one expression; each expression has exactly one capture group. */
function expressionPattern(operator: string, count: number, explode: boolean): string {
  switch (operator) {
    case "":
      // Values are percent-encoded, so `;` and (between variables) `,` only occur as separators;
      // `.` is unreserved, so `{name}{.ext}` relies on backtracking.
      return count === 1 && !explode ? "([^/?#;,]+)" : "([^/?#;]+)";
    case "+":
      return "(.+)";
    case "#":
      return "(?:#(.*))?";
    case "/":
      return count === 1 && !explode ? "/([^/?#]+)" : "((?:/[^/?#]*)*)";
    case ".":
      return count === 1 && !explode ? "\\.([^/?#]+)" : "((?:\\.[^/?#]*)*)";
    case ";":
      return "((?:;[^/?#;]*)*)";
    default: // ? and &
      return `(?:\\${operator}([^#]*))?`;
  }
}

function splitList(raw: string, operator: string): string[] {
  if (operator === "/" || operator === ".") return raw.split(operator).slice(1);
  return raw.split(",");
}

/** Compile once per template; matching is then allocation-light. Throws TypeError on a malformed template. */
export function compileUriMatcher(template: string): UriMatcher {
  const captures: Capture[] = [];
  const variables: string[] = [];
  let source = "^";
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf("{", i);
    const literalEnd = open < 0 ? template.length : open;
    source += escapeRegExp(template.slice(i, literalEnd));
    if (open < 0) break;
    const close = template.indexOf("}", open);
    if (close < 0) throw new TypeError(`Invalid URI template ${JSON.stringify(template)}: unclosed "{"`);
    let body = template.slice(open + 1, close);
    const operator = body !== "" && OPERATORS.includes(body[0]!) ? body[0]! : "";
    if (operator) body = body.slice(1);
    const names = body.split(",").map((spec) => {
      const explode = spec.endsWith("*");
      const name = spec.replace(/\*$/, "").replace(/:\d+$/, "");
      if (!/^[A-Za-z0-9_%.]+$/.test(name))
        throw new TypeError(`Invalid URI template ${JSON.stringify(template)}: bad variable ${JSON.stringify(spec)}`);
      if (!variables.includes(name)) variables.push(name);
      return { name, explode };
    });
    source += expressionPattern(
      operator,
      names.length,
      names.some((n) => n.explode),
    );
    captures.push({ operator, names });
    i = close + 1;
  }
  const regex = new RegExp(source + "$");
  // `{?a}{&b}` expands to one query string that the `?` group captures whole.
  const queryNames = captures.filter((c) => c.operator === "?" || c.operator === "&").flatMap((c) => c.names);

  return {
    template,
    variables,
    match(uri: string): Record<string, string | string[]> | null {
      const m = regex.exec(uri);
      if (m === null) return null;
      const out: Record<string, string | string[]> = {};
      for (let c = 0; c < captures.length; c++) {
        const raw = m[c + 1];
        const { operator, names } = captures[c]!;
        if (raw === undefined || raw === "") {
          // `{/path*}` matching nothing is an empty list, not a missing variable.
          if ((operator === "/" || operator === ".") && names.length === 1 && names[0]!.explode)
            out[names[0]!.name] = [];
          continue;
        }
        if (operator === "?" || operator === "&" || operator === ";") {
          if (!assignPairs(out, raw, operator === ";" ? ";" : "&", operator === ";" ? names : queryNames)) return null;
          continue;
        }
        const reserved = operator === "+" || operator === "#";
        const parts = names.length === 1 && !names[0]!.explode ? [raw] : splitList(raw, operator);
        if (names.length === 1 && names[0]!.explode) {
          const list: string[] = [];
          for (const p of parts) {
            const d = reserved ? decodeReserved(p) : decode(p);
            if (d === undefined) return null;
            list.push(d);
          }
          out[names[0]!.name] = list;
          continue;
        }
        if (parts.length > names.length) return null;
        for (let k = 0; k < parts.length; k++) {
          const d = reserved ? decodeReserved(parts[k]!) : decode(parts[k]!);
          if (d === undefined) return null;
          out[names[k]!.name] = d;
        }
      }
      return out;
    },
  };
}

/** `+`/`#` keep reserved characters literal; only percent-encoded octets need decoding. */
function decodeReserved(s: string): string | undefined {
  return s.includes("%") ? decode(s) : s;
}

/** `name=value` pairs of `?`, `&` and `;` expressions; repeated names (exploded lists) collect into arrays. */
function assignPairs(
  out: Record<string, string | string[]>,
  raw: string,
  separator: string,
  names: Capture["names"],
): boolean {
  const body = separator === ";" ? raw.slice(1) : raw;
  for (const pair of body.split(separator)) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const key = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? "" : decode(pair.slice(eq + 1));
    if (key === undefined || value === undefined) return false;
    const spec = names.find((n) => n.name === key);
    if (spec === undefined) continue;
    const prev = out[key];
    if (spec.explode) out[key] = prev === undefined ? [value] : Array.isArray(prev) ? [...prev, value] : [prev, value];
    else out[key] = value;
  }
  return true;
}
