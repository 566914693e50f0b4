/**
 * The YAML frontmatter of a SKILL.md (Agent Skills format), as the Skills extension publishes it:
 * rendered verbatim as a JSON object (https://modelcontextprotocol.io/seps/2640-skills-extension).
 * Frontmatter is a few keys (`name`, `description`, `license`, `compatibility`, `metadata`,
 * `allowed-tools`), so this reads the block-style subset of YAML 1.2 they are written in: nested
 * mappings, block sequences, flow sequences of scalars, plain and quoted scalars (core schema:
 * null, booleans, numbers), literal and folded block scalars, comments. Anything else (anchors,
 * tags, flow mappings, multi-document markers) is refused with its line, never guessed at.
 */

export class FrontmatterError extends Error {
  constructor(
    message: string,
    /** 1-based line in the SKILL.md file. */
    readonly line: number,
  ) {
    super(message);
  }
}

/** The frontmatter block at the start of `text` as JSON; null when the file does not begin with `---`. */
export function readFrontmatter(text: string): { [key: string]: unknown } | null {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const open = /^---[ \t]*\r?\n/.exec(src);
  if (open === null) return null;
  const lines: string[] = [];
  let pos = open[0].length;
  for (;;) {
    if (pos >= src.length)
      throw new FrontmatterError("the frontmatter block is not closed by a line `---`", lines.length + 2);
    const nl = src.indexOf("\n", pos);
    const end = nl < 0 ? src.length : nl;
    const line = src.slice(pos, end).replace(/\r$/, "");
    pos = nl < 0 ? src.length : nl + 1;
    if (/^---[ \t]*$/.test(line)) break;
    lines.push(line);
  }
  const parsed = new BlockParser(lines).document();
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw new FrontmatterError("the frontmatter is not a mapping of keys to values", 2);
  return parsed as { [key: string]: unknown };
}

const KEY = /^([^\s#:'"[\]{},&*!|>%@`-][^:#]*?|-[^\s:#][^:#]*?|"[^"]*"|'[^']*'):(?:[ \t]+(.*))?$/;

function indentOf(line: string): number {
  return /^ */.exec(line)![0].length;
}

function isBlank(line: string): boolean {
  return /^\s*(#.*)?$/.test(line);
}

class BlockParser {
  private i = 0;
  constructor(private readonly lines: string[]) {}

  private fail(message: string, index = this.i): never {
    // +2: the opening `---` is line 1.
    throw new FrontmatterError(message, index + 2);
  }

  private skipBlank(): void {
    while (this.i < this.lines.length && isBlank(this.lines[this.i]!)) this.i++;
  }

  document(): unknown {
    for (let k = 0; k < this.lines.length; k++)
      if (/^\t|^ *\t/.test(this.lines[k]!) && !isBlank(this.lines[k]!)) this.fail("tabs cannot indent YAML", k);
    this.skipBlank();
    if (this.i >= this.lines.length) return null;
    const v = this.block(indentOf(this.lines[this.i]!));
    this.skipBlank();
    if (this.i < this.lines.length) this.fail("unexpected indentation");
    return v;
  }

  private block(indent: number): unknown {
    const line = this.lines[this.i]!.slice(indent);
    return line.startsWith("- ") || line === "-" ? this.sequence(indent) : this.mapping(indent);
  }

  private mapping(indent: number): { [key: string]: unknown } {
    const out: { [key: string]: unknown } = {};
    for (;;) {
      this.skipBlank();
      if (this.i >= this.lines.length) return out;
      const raw = this.lines[this.i]!;
      const at = indentOf(raw);
      if (at < indent) return out;
      if (at > indent) this.fail("unexpected indentation");
      const m = KEY.exec(raw.slice(indent).trimEnd());
      if (m === null) this.fail(`expected \`key: value\`, got ${JSON.stringify(raw.trim())}`);
      const key = unquoteKey(m[1]!.trim());
      if (Object.hasOwn(out, key)) this.fail(`duplicate key ${JSON.stringify(key)}`);
      const line = this.i++;
      out[key] = this.valueAfter(m[2], indent, line);
    }
  }

  private sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    for (;;) {
      this.skipBlank();
      if (this.i >= this.lines.length) return out;
      const raw = this.lines[this.i]!;
      const at = indentOf(raw);
      if (at < indent) return out;
      if (at > indent) this.fail("unexpected indentation");
      const rest = raw.slice(indent);
      if (!(rest.startsWith("- ") || rest === "-")) return out;
      const item = rest.slice(1).trim();
      if (KEY.test(item)) this.fail("mappings inside sequences are not supported in frontmatter");
      const line = this.i++;
      out.push(this.valueAfter(item === "" ? undefined : item, indent, line));
    }
  }

  /** The value after `key:` or `- ` on line `line`: inline, a block scalar, or a nested block. */
  private valueAfter(inline: string | undefined, indent: number, line: number): unknown {
    const text = inline === undefined ? "" : stripComment(inline);
    if (text === "") {
      this.skipBlank();
      if (this.i < this.lines.length && indentOf(this.lines[this.i]!) > indent)
        return this.block(indentOf(this.lines[this.i]!));
      // A sequence may sit at its key's own indentation.
      if (
        this.i < this.lines.length &&
        indentOf(this.lines[this.i]!) === indent &&
        /^- |^-$/.test(this.lines[this.i]!.slice(indent))
      )
        return this.sequence(indent);
      return null;
    }
    if (/^[|>][+-]?$/.test(text)) return this.blockScalar(text, indent);
    return scalar(text, (m) => this.fail(m, line));
  }

  private blockScalar(header: string, indent: number): string {
    const parts: string[] = [];
    let inner = -1;
    while (this.i < this.lines.length) {
      const raw = this.lines[this.i]!;
      if (raw.trim() === "") {
        parts.push("");
        this.i++;
        continue;
      }
      const at = indentOf(raw);
      if (at <= indent) break;
      if (inner < 0) inner = at;
      if (at < inner) this.fail("a block scalar line is less indented than its first line");
      parts.push(raw.slice(inner));
      this.i++;
    }
    let trailing = 0;
    while (parts.length > 0 && parts[parts.length - 1] === "") {
      parts.pop();
      trailing++;
    }
    const folded = header.startsWith(">") ? fold(parts) : parts.join("\n");
    const chomp = header.slice(1);
    if (chomp === "-") return folded;
    if (chomp === "+") return folded + "\n".repeat(trailing + 1);
    return parts.length === 0 ? "" : folded + "\n";
  }
}

/** `>`: lines joined by spaces, blank lines kept as newlines; more-indented lines keep their breaks. */
function fold(lines: string[]): string {
  let out = "";
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k]!;
    if (k === 0) out = l;
    else if (l === "" || lines[k - 1] === "") out += "\n" + (l === "" ? "" : l);
    else if (/^\s/.test(l) || /^\s/.test(lines[k - 1]!)) out += "\n" + l;
    else out += " " + l;
  }
  return out;
}

function stripComment(s: string): string {
  if (s.startsWith('"') || s.startsWith("'")) return s.trim();
  const hash = s.search(/\s#/);
  return (hash < 0 ? s : s.slice(0, hash)).trim();
}

function unquoteKey(k: string): string {
  if (k.startsWith('"')) return JSON.parse(k) as string;
  if (k.startsWith("'")) return k.slice(1, -1).replace(/''/g, "'");
  return k;
}

function scalar(text: string, fail: (message: string) => never): unknown {
  const first = text[0]!;
  if (first === '"') {
    const end = closingQuote(text, '"');
    if (end !== text.length - 1) fail("text after a double-quoted string");
    try {
      return JSON.parse(text.replace(/\\\//g, "/").replace(/\\x([0-9a-fA-F]{2})/g, "\\u00$1")) as string;
    } catch {
      return fail("a double-quoted string uses an escape this reader does not support");
    }
  }
  if (first === "'") {
    if (!/^'(?:[^']|'')*'$/.test(text)) fail("unterminated or malformed single-quoted string");
    return text.slice(1, -1).replace(/''/g, "'");
  }
  if (first === "[") return flowSequence(text, fail);
  if (first === "{")
    fail("flow mappings ({...}) are not supported in frontmatter; write the mapping as indented lines");
  if ("&*!%@`".includes(first))
    fail(
      `YAML ${first === "&" ? "anchors" : first === "*" ? "aliases" : first === "!" ? "tags" : "reserved indicators"} are not supported in frontmatter`,
    );
  if (/:\s/.test(text)) fail(`a plain value cannot contain ": " (quote it): ${JSON.stringify(text)}`);
  return plainScalar(text);
}

function closingQuote(text: string, q: string): number {
  for (let k = 1; k < text.length; k++) {
    if (text[k] === "\\") k++;
    else if (text[k] === q) return k;
  }
  return -1;
}

/** YAML 1.2 core schema resolution of a plain scalar. */
function plainScalar(s: string): unknown {
  if (/^(?:null|Null|NULL|~)$/.test(s)) return null;
  if (/^(?:true|True|TRUE)$/.test(s)) return true;
  if (/^(?:false|False|FALSE)$/.test(s)) return false;
  if (/^[-+]?[0-9]+$/.test(s)) return Number(s);
  if (/^0o[0-7]+$/.test(s)) return parseInt(s.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(s)) return parseInt(s.slice(2), 16);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(s)) return Number(s);
  if (/^[-+]?\.(?:inf|Inf|INF)$/.test(s)) return s.startsWith("-") ? -Infinity : Infinity;
  if (/^\.(?:nan|NaN|NAN)$/.test(s)) return NaN;
  return s;
}

function flowSequence(text: string, fail: (message: string) => never): unknown[] {
  if (!text.endsWith("]")) fail("a flow sequence must end with ] on the same line");
  const inner = text.slice(1, -1).trim();
  if (inner === "") return [];
  if (/[[\]{}]/.test(inner)) fail("nested flow collections are not supported in frontmatter");
  const items: string[] = [];
  let cur = "";
  let quote: string | null = null;
  for (let k = 0; k < inner.length; k++) {
    const c = inner[k]!;
    if (quote !== null) {
      cur += c;
      if (c === "\\" && quote === '"') cur += inner[++k] ?? "";
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
      cur += c;
    } else if (c === ",") {
      items.push(cur.trim());
      cur = "";
    } else cur += c;
  }
  if (quote !== null) fail("unterminated string in a flow sequence");
  items.push(cur.trim());
  return items.map((i) => {
    if (i === "") fail("empty entry in a flow sequence");
    return scalar(i, fail);
  });
}
