/**
 * The one mapping from MCP names (tool, prompt, resource names, schema property paths) to
 * TypeScript identifiers. Pure and order-independent: the result depends only on the input
 * string, so adding a tool never renames another one; a clash is reported, never suffixed.
 *
 * Rule: split the name into words at every character that is neither a letter, a combining
 * mark nor a digit (`_`, `-`, `.`, `/`, spaces, emoji ... are separators) and at lower→upper
 * case changes; then join the words in camelCase (members) or PascalCase (types). A word that is
 * all upper case (`URL`, `GET`) counts as one word and is capitalised (`Url`, `Get`), so
 * `get_URL`, `getUrl` and `GET-URL` all become `getUrl`. A result that starts with a digit gets
 * a leading `_`.
 */

const WORD_CHAR = /[\p{L}\p{M}\p{Nd}\p{Nl}]/u;
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;
const ID_START = /[\p{ID_Start}$_]/u;

/** ECMAScript reserved words, strict-mode reserved words and TS's contextual type names that cannot name a binding. */
const RESERVED_WORDS: ReadonlySet<string> = new Set([
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "import",
  "in",
  "instanceof",
  "new",
  "null",
  "return",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "var",
  "void",
  "while",
  "with",
  "as",
  "implements",
  "interface",
  "let",
  "package",
  "private",
  "protected",
  "public",
  "static",
  "yield",
  "await",
  "arguments",
  "eval",
  "undefined",
  "NaN",
  "Infinity",
  "any",
  "boolean",
  "never",
  "number",
  "object",
  "string",
  "symbol",
  "unknown",
  "bigint",
]);

/** Splits an MCP name into words; empty when the name holds no letter or digit. */
export function splitWords(name: string): string[] {
  const words: string[] = [];
  let current = "";
  let prev = "";
  for (const ch of name.normalize("NFC")) {
    if (!WORD_CHAR.test(ch)) {
      if (current) words.push(current);
      current = "";
      prev = "";
      continue;
    }
    // lower→Upper starts a word (getForecast); so does the last capital of a run followed by
    // a lower-case letter (HTTPServer → HTTP Server), handled below when we see the lower.
    if (current && UPPER.test(ch) && (LOWER.test(prev) || /\p{Nd}/u.test(prev))) {
      words.push(current);
      current = ch;
    } else if (
      current.length > 1 &&
      LOWER.test(ch) &&
      UPPER.test(prev) &&
      UPPER.test(current[current.length - 2] ?? "")
    ) {
      words.push(current.slice(0, -1));
      current = prev + ch;
    } else {
      current += ch;
    }
    prev = ch;
  }
  if (current) words.push(current);
  return words;
}

function capitalise(word: string): string {
  const chars = [...word];
  const first = chars[0] ?? "";
  return first.toUpperCase() + chars.slice(1).join("").toLowerCase();
}

function pascalWords(words: string[]): string {
  return words.map(capitalise).join("");
}

function guardStart(id: string): string {
  const first = [...id][0] ?? "";
  return ID_START.test(first) ? id : `_${id}`;
}

/** `get_forecast` → `GetForecast`; `""` when the name has no letters or digits. */
export function toTypeName(name: string): string {
  const words = splitWords(name);
  return words.length ? guardStart(pascalWords(words)) : "";
}

/** `get_forecast` → `getForecast` (usable as a property key; see `toBindingName` for variables). */
export function toMemberName(name: string): string {
  const words = splitWords(name);
  if (!words.length) return "";
  const [first, ...rest] = words;
  return guardStart(first!.toLowerCase() + pascalWords(rest));
}

/** A member name that is also safe as a variable or parameter name (`delete` → `delete_`). */
export function toBindingName(name: string): string {
  const m = toMemberName(name);
  return RESERVED_WORDS.has(m) ? `${m}_` : m;
}

const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u;

/** True when `key` can be written unquoted as a property name. */
export function isIdentifierName(key: string): boolean {
  return IDENTIFIER.test(key);
}

/** A property key as TS source: bare when it is an identifier name (reserved words included), else quoted. */
export function propertyKey(key: string): string {
  return isIdentifierName(key) ? key : JSON.stringify(key);
}
