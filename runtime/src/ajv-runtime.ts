/**
 * What ajv's standalone code calls besides the issue sites (issue-sites.ts): the bound on collected
 * failures, JSON helpers and format checks. The ABI (abi.ts) re-exports it whole; the all-errors tool
 * validators import it through `@mcpgen/runtime/abi/v8/all-errors` (abi/v8-all-errors.ts), because
 * they are loaded by a dynamic import and a bundler wraps everything such a module reaches in
 * lazy-init glue: this module reaches nothing but the limits.
 */
import { MAX_COLLECTED_ISSUES } from "./limits.js";
import type { ValidationIssue } from "./protocol-binding.js";

/**
 * Thrown by an all-errors tool validator (`tools.all-errors.ajv.ts`) once it has collected
 * MAX_COLLECTED_ISSUES failures: what it collected, the value is invalid in more places.
 */
export class TooManyIssues extends Error {
  override name = "TooManyIssues";
  constructor(readonly issues: ValidationIssue[]) {
    super(`more than ${MAX_COLLECTED_ISSUES} validation failures`);
  }
}

/**
 * The error count of an all-errors validator after it recorded failures in `issues`: `count`, or
 * TooManyIssues past MAX_COLLECTED_ISSUES (the emitted code calls this wherever ajv counts one).
 */
export function counted(count: number, issues: ValidationIssue[] | null): number {
  if (count > MAX_COLLECTED_ISSUES) throw new TooManyIssues(issues ?? []);
  return count;
}

/** Length in Unicode code points, as JSON Schema's minLength/maxLength count it. */
export function ucs2length(str: string): number {
  let length = 0;
  const len = str.length;
  let pos = 0;
  while (pos < len) {
    length++;
    const value = str.charCodeAt(pos++);
    if (value >= 0xd800 && value <= 0xdbff && pos < len) {
      const next = str.charCodeAt(pos);
      if ((next & 0xfc00) === 0xdc00) pos++;
    }
  }
  return length;
}

/** Structural equality of JSON values, for `const`/`enum`/`uniqueItems` on non-primitive values. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a && b && typeof a === "object" && typeof b === "object") {
    if (Array.isArray(a)) {
      if (!Array.isArray(b) || a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
      return true;
    }
    if (Array.isArray(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) {
      if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
      if (!equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
    }
    return true;
  }
  return a !== a && b !== b; // NaN
}

// ---- string formats used by the MCP schemas (`format` keyword), called by emitted validators.
// Deliberately cheap structural checks, not full RFC grammars: a validator on the message hot path
// must not reject what peers commonly send, yet must catch values of the wrong shape.

/** RFC 3986 URI, loosely: a scheme followed by ":" and no whitespace or control characters. */
// oxlint-disable-next-line no-control-regex -- control characters are what the check rejects
const uriPattern = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s\u0000-\u001f\u007f]*$/;

/**
 * RFC 6570 URI template, loosely: literals without whitespace or the characters RFC 6570 excludes
 * from literals, and well-formed `{...}` expressions (optional operator, comma-separated variables,
 * each with an optional `:N` prefix or `*` explode modifier).
 */
const uriTemplatePattern =
  // oxlint-disable-next-line no-control-regex -- control characters are what the check rejects
  /^(?:[^\s\u0000-\u001f\u007f"'<>\\^`{|}]|\{[+#./;?&=,!@|]?[A-Za-z0-9_.%]+(?::[1-9][0-9]{0,3}|\*)?(?:,[A-Za-z0-9_.%]+(?::[1-9][0-9]{0,3}|\*)?)*\})*$/;

/** RFC 4648 base64 (standard alphabet, padded), as JSON Schema's `byte` format (OpenAPI) means it. */
const base64Pattern = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The `format` checks emitted validators call, one export each so that a bundle carries only the
 * patterns its validators use (a one-tool server's need `uri` alone); each receives a string.
 */
export const formatUri = (value: string): boolean => uriPattern.test(value);
export const formatUriTemplate = (value: string): boolean => uriTemplatePattern.test(value);
export const formatByte = (value: string): boolean => value.length % 4 === 0 && base64Pattern.test(value);

/** The same checks keyed by format name, as ABI 8 validators generated before the exports above call them. */
export const formats: Readonly<Record<string, (value: string) => boolean>> = {
  uri: formatUri,
  "uri-template": formatUriTemplate,
  byte: formatByte,
};
