/**
 * RFC 6570 syntax check and variable extraction for resource templates, at generation time.
 * (Expansion and matching at run time go through the runtime's URI-template dependency; the
 * generator only needs the grammar to validate templates and name their variables.)
 */

export interface TemplateVariable {
  name: string;
  /** Operator of the expression holding it: "" (simple), "+", "#", ".", "/", ";", "?", "&". */
  operator: string;
  explode: boolean;
  prefix: number | null;
  /** Index of the `{...}` expression holding it. */
  expression: number;
}

export type TemplateParse =
  { ok: true; variables: TemplateVariable[] } | { ok: false; message: string; offset: number };

const OPERATORS = new Set(["+", "#", ".", "/", ";", "?", "&"]);
const RESERVED_OPERATORS = new Set(["=", ",", "!", "@", "|"]);
// varname = varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_" / pct-encoded
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
// literals: any char except CTL, SP, DQUOTE, "'", "%" (unless pct-encoded), "<", ">", "\", "^", "`", "{", "|", "}"
// oxlint-disable-next-line no-control-regex -- control characters are what RFC 6570 excludes from literals
const BAD_LITERAL = /[\u0000-\u0020"'<>\\^`|}]/;

export function parseUriTemplate(template: string): TemplateParse {
  const variables: TemplateVariable[] = [];
  let expression = 0;
  let i = 0;
  while (i < template.length) {
    const c = template[i]!;
    if (c === "{") {
      const end = template.indexOf("}", i + 1);
      if (end < 0) return { ok: false, message: 'unclosed expression: missing "}"', offset: i };
      let body = template.slice(i + 1, end);
      if (body.includes("{")) return { ok: false, message: 'nested "{" inside an expression', offset: i };
      let operator = "";
      if (body && OPERATORS.has(body[0]!)) {
        operator = body[0]!;
        body = body.slice(1);
      } else if (body && RESERVED_OPERATORS.has(body[0]!)) {
        return { ok: false, message: `operator "${body[0]}" is reserved by RFC 6570`, offset: i + 1 };
      }
      if (body === "") return { ok: false, message: "empty expression", offset: i };
      for (const spec of body.split(",")) {
        const m = /^([^:*]*)(?::(\d+)|(\*))?$/.exec(spec);
        const name = m?.[1] ?? "";
        if (!m || !VARNAME.test(name))
          return {
            ok: false,
            message: `invalid variable ${JSON.stringify(spec)} (letters, digits, "_", pct-encoded and inner "." only)`,
            offset: i,
          };
        const prefix = m[2] !== undefined ? Number(m[2]) : null;
        if (prefix !== null && (prefix < 1 || prefix > 9999 || m[2]!.length > 4))
          return { ok: false, message: `prefix length of "${name}" must be 1..9999`, offset: i };
        variables.push({ name, operator, explode: m[3] === "*", prefix, expression });
      }
      expression++;
      i = end + 1;
      continue;
    }
    if (c === "%") {
      if (!/^%[0-9A-Fa-f]{2}/.test(template.slice(i, i + 3)))
        return { ok: false, message: '"%" must start a pct-encoded octet', offset: i };
      i += 3;
      continue;
    }
    if (BAD_LITERAL.test(c))
      return {
        ok: false,
        message: `character ${JSON.stringify(c)} is not allowed in a URI template literal`,
        offset: i,
      };
    i++;
  }
  return { ok: true, variables };
}

/**
 * Shapes that expansion handles but matching a URI back to variables cannot (reliably): the
 * generated server routes `resources/read` by matching, so these get a warning.
 */
export function unmatchableParts(vars: TemplateVariable[]): string[] {
  const out: string[] = [];
  const byExpression = new Map<number, TemplateVariable[]>();
  for (const v of vars) byExpression.set(v.expression, [...(byExpression.get(v.expression) ?? []), v]);
  for (const group of byExpression.values()) {
    const op = group[0]!.operator;
    if (group.length > 1 && (op === "/" || op === "+" || op === "#")) {
      out.push(
        `{${op}${group.map((v) => v.name).join(",")}} cannot be split back into its variables; write ${group.map((v) => `{${op}${v.name}}`).join("")} or separate them with literals`,
      );
    }
  }
  for (const v of vars)
    if (v.prefix !== null)
      out.push(`"${v.name}:${v.prefix}" keeps only a prefix, so a matched URI yields the prefix, not the value`);
  return out;
}
