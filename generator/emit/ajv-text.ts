/**
 * The shapes of ajv's standalone code that the passes of ajv-code.ts and ajv-lean.ts recognise,
 * matched on the text exactly as ajv (8.x) writes it.
 */

/** A string literal as ajv writes it: always double quotes. */
export const STRING = String.raw`"(?:[^"\\\n]|\\.)*"`;

/** Applies `edit` to the code outside string literals (ajv writes every string with double quotes). */
export function outsideStrings(code: string, edit: (part: string) => string): string {
  const string = new RegExp(STRING, "g");
  let out = "";
  let from = 0;
  for (let m = string.exec(code); m !== null; m = string.exec(code)) {
    out += edit(code.slice(from, m.index)) + m[0];
    from = m.index + m[0].length;
  }
  return out + edit(code.slice(from));
}

/** `first`, then any number of `+ rest`. */
export const JOINED = (first: string, rest: string) => String.raw`${first}(?:\s*\+\s*(?:${rest}))*`;

/**
 * One error site of ajv's `allErrors: false` code, exactly as ajv writes it: set the single error,
 * return false. Each part is matched conservatively (instance path and message: string literals
 * and plain names joined by `+`; params: no nested braces), so a site this does not recognise is
 * left as ajv wrote it.
 */
export const ERROR_SITE = new RegExp(
  String.raw`(validate\d+)\.errors = \[\{instancePath(?::(${JOINED("instancePath", String.raw`${STRING}|[\w$]+`)}))?,` +
    String.raw`schemaPath:(${STRING}),keyword:(${STRING}),params:(\{(?:[^{}"]|${STRING})*\}),` +
    String.raw`message:(${JOINED(STRING, String.raw`${STRING}|[\w$.]+`)})\}\];return false;`,
  "g",
);

/** One error site of ajv's `allErrors: true` code, as ajv writes it (parts matched as in ERROR_SITE). */
export const ALL_ERRORS_SITE = new RegExp(
  String.raw`const (err\d+) = \{instancePath(?::(${JOINED("instancePath", String.raw`${STRING}|[\w$]+`)}))?,` +
    String.raw`schemaPath:(${STRING}),keyword:(${STRING}),params:(\{(?:[^{}"]|${STRING})*\}),` +
    String.raw`message:(${JOINED(STRING, String.raw`${STRING}|[\w$.]+`)})\};if\(vErrors === null\)\{vErrors = \[\1\];\}else \{vErrors\.push\(\1\);\}`,
  "g",
);
