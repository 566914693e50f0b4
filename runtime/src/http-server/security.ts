import type { IncomingMessage } from "node:http";

export interface HostOriginOptions {
  /**
   * DNS-rebinding protection. Default (undefined): on for connections accepted on a loopback
   * address, off otherwise. true/false force it.
   */
  dnsRebindingProtection?: boolean;
  /** Accepted Host values: bare hostnames match any port, "host:port" matches exactly. Default: localhost, 127.0.0.1, [::1]. */
  allowedHosts?: readonly string[];
  /** Accepted Origin values (e.g. "http://localhost:3000"); default: any origin whose host is loopback. */
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

/** Host part of a Host header or URL authority, lower-cased, port removed ("[::1]" keeps brackets). */
function hostnameOf(authority: string): string {
  const a = authority.trim().toLowerCase();
  if (a.startsWith("[")) {
    const end = a.indexOf("]");
    return end === -1 ? a : a.slice(0, end + 1);
  }
  const colon = a.indexOf(":");
  return colon === -1 ? a : a.slice(0, colon);
}

/**
 * DNS-rebinding checks. A bad Host gets 421 Misdirected Request (the request was not meant for
 * this server); a present but unlisted Origin gets 403 Forbidden (2025-11-25 §Security).
 */
export function checkHostOrigin(req: IncomingMessage, o: HostOriginOptions): Refusal | undefined {
  const explicit = o.allowedHosts !== undefined || o.allowedOrigins !== undefined;
  const on = o.dnsRebindingProtection ?? (explicit || isLoopbackAddress(req.socket.localAddress));
  if (!on) return undefined;
  const host = req.headers.host;
  if (typeof host !== "string" || host === "") return { status: 421, message: "Missing Host header" };
  const hosts = o.allowedHosts ?? LOOPBACK_HOSTS;
  const hn = hostnameOf(host);
  const h = host.trim().toLowerCase();
  if (!hosts.some((allowed) => allowed.toLowerCase() === h || allowed.toLowerCase() === hn)) {
    return { status: 421, message: `Host not allowed: ${host}` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined) {
    if (o.allowedOrigins) {
      if (!o.allowedOrigins.includes(origin)) return { status: 403, message: `Origin not allowed: ${origin}` };
    } else {
      let ok = false;
      try {
        const u = new URL(origin);
        ok = LOOPBACK_HOSTS.includes(u.hostname.toLowerCase());
      } catch {
        ok = false;
      }
      if (!ok) return { status: 403, message: `Origin not allowed: ${origin}` };
    }
  }
  return undefined;
}
