import type { HttpRequestIn } from "../http-exchange.js";

export interface HostOriginOptions {
  /**
   * DNS-rebinding protection. Default (undefined): on for connections accepted on a loopback
   * address, off otherwise. true/false force it.
   */
  dnsRebindingProtection?: boolean;
  /** Accepted Host values: bare hostnames match any port, "host:port" matches exactly. Default: localhost, 127.0.0.1, [::1]. */
  allowedHosts?: readonly string[];
  /**
   * Accepted Origin values (e.g. "http://localhost:3000"); default: a loopback origin on the port
   * the request arrived on (the server's own pages), nothing else.
   */
  allowedOrigins?: readonly string[];
}

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/** Why a request is refused: status and message, or undefined when it may proceed. */
export interface Refusal {
  status: number;
  message: string;
}

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

/**
 * A Host header is `host[:port]` and nothing else (RFC 9110 §7.2): a reg-name, an IPv4 address or
 * a bracketed IPv6 address, then an optional decimal port. Anything else (userinfo, paths,
 * `localhost:80@evil.example`) is refused outright rather than guessed at.
 */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9._~!$&'()*+,;=%-]+)(?::(\d{1,5}))?$/;

function parseHost(header: string): { hostname: string; port: string | undefined } | undefined {
  const m = HOST_HEADER.exec(header.trim().toLowerCase());
  return m ? { hostname: m[1]!, port: m[2] } : undefined;
}

/**
 * The Host header last allowed, and the options and host list it was allowed under: a client sends
 * the same Host on every request, so the parse and the list walk run once per Host, not per request.
 */
let allowedHost: string | undefined;
let allowedUnder: HostOriginOptions | undefined;
let allowedIn: readonly string[] | undefined;

/**
 * DNS-rebinding checks. A bad Host gets 421 Misdirected Request (the request was not meant for
 * this server); a present but unlisted Origin gets 403 Forbidden (2025-11-25 §Security).
 */
export function checkHostOrigin(req: HttpRequestIn, o: HostOriginOptions): Refusal | undefined {
  const explicit = o.allowedHosts !== undefined || o.allowedOrigins !== undefined;
  const on = o.dnsRebindingProtection ?? (explicit || isLoopbackAddress(req.socket.localAddress));
  if (!on) return undefined;
  const host = req.headers.host;
  if (typeof host !== "string" || host === "") return { status: 421, message: "Missing Host header" };
  const hosts = o.allowedHosts ?? LOOPBACK_HOSTS;
  if (host !== allowedHost || o !== allowedUnder || hosts !== allowedIn) {
    const parsed = parseHost(host);
    if (parsed === undefined) return { status: 400, message: "Malformed Host header" };
    const h = parsed.port === undefined ? parsed.hostname : `${parsed.hostname}:${parsed.port}`;
    if (!hosts.some((allowed) => allowed.toLowerCase() === h || allowed.toLowerCase() === parsed.hostname)) {
      return { status: 421, message: `Host not allowed: ${h.slice(0, 200)}` };
    }
    allowedHost = host;
    allowedUnder = o;
    allowedIn = hosts;
  }
  const sent = req.headers.origin;
  if (sent !== undefined) {
    const origin = typeof sent === "string" ? sent : sent.join(", ");
    if (o.allowedOrigins) {
      if (!o.allowedOrigins.includes(origin))
        return { status: 403, message: `Origin not allowed: ${origin.slice(0, 200)}` };
    } else {
      let ok = false;
      try {
        const u = new URL(origin);
        // Another local port is another application (a dev server, a browser tab): not us.
        const port = u.port === "" ? (u.protocol === "https:" ? 443 : 80) : Number(u.port);
        ok =
          (u.protocol === "http:" || u.protocol === "https:") &&
          LOOPBACK_HOSTS.includes(u.hostname.toLowerCase()) &&
          port === req.socket.localPort;
      } catch {
        ok = false;
      }
      if (!ok) return { status: 403, message: `Origin not allowed: ${origin.slice(0, 200)}` };
    }
  }
  return undefined;
}
