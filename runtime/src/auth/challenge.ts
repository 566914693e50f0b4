/**
 * `WWW-Authenticate` parsing (RFC 9110 §11.6.1): a list of challenges, each a scheme followed by
 * either a token68 or comma-separated auth-params whose values are tokens or quoted strings.
 * Only the Bearer and DPoP challenges' parameters matter to MCP (`resource_metadata`, `scope`, `error`).
 */
export interface BearerChallenge {
  resourceMetadata?: string;
  scope?: string;
  error?: string;
  errorDescription?: string;
}

const MAX_HEADER_CHARS = 8192;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

/** The Bearer challenge's parameters, or undefined when the header has no Bearer challenge. */
export function parseBearerChallenge(header: string | undefined): BearerChallenge | undefined {
  return parseSchemeChallenge(header, "bearer");
}

/**
 * The parameters of the header's challenge of `scheme` ("bearer" or "dpop", RFC 9449 §7.1: the
 * same parameters), or undefined when it has none.
 */
export function parseSchemeChallenge(
  header: string | undefined,
  scheme: "bearer" | "dpop",
): BearerChallenge | undefined {
  if (header === undefined || header.length > MAX_HEADER_CHARS) return undefined;
  for (const c of parseChallenges(header)) {
    if (c.scheme.toLowerCase() !== scheme) continue;
    const p = c.params;
    return {
      resourceMetadata: p.resource_metadata,
      scope: p.scope,
      error: p.error,
      errorDescription: p.error_description,
    };
  }
  return undefined;
}

interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

function parseChallenges(s: string): Challenge[] {
  const out: Challenge[] = [];
  let i = 0;
  const skip = (): void => {
    while (i < s.length && (s[i] === " " || s[i] === "\t" || s[i] === ",")) i++;
  };
  const ws = (): void => {
    while (i < s.length && (s[i] === " " || s[i] === "\t")) i++;
  };
  let current: Challenge | undefined;
  while (i < s.length) {
    skip();
    const m = TOKEN.exec(s.slice(i));
    if (!m) break;
    const word = m[0];
    const after = i + word.length;
    let j = after;
    while (j < s.length && (s[j] === " " || s[j] === "\t")) j++;
    if (s[j] === "=" && current !== undefined && s[j + 1] !== "=") {
      // auth-param of the current challenge
      i = j + 1;
      ws();
      let value = "";
      if (s[i] === '"') {
        i++;
        while (i < s.length && s[i] !== '"') {
          if (s[i] === "\\" && i + 1 < s.length) i++;
          value += s[i];
          i++;
        }
        i++;
      } else {
        const v = TOKEN.exec(s.slice(i));
        value = v ? v[0] : "";
        i += value.length;
      }
      const key = word.toLowerCase();
      if (!(key in current.params)) current.params[key] = value;
      continue;
    }
    // a new challenge: scheme, optionally followed by a token68 (skipped)
    current = { scheme: word, params: {} };
    out.push(current);
    i = after;
    ws();
    // token68 credentials (e.g. `Basic abc==`) end at a comma or the end of the header
    const t68 = /^[A-Za-z0-9\-._~+/]+=*[ \t]*(?:,|$)/.exec(s.slice(i));
    if (t68) i += t68[0].length;
  }
  return out;
}
