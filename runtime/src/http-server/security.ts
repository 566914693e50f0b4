import type { HttpRequestIn } from "../http-exchange.js";

export interface HostOriginOptions {
  /**
   * DNS-rebinding protection. Default (undefined): on for connections accepted on a loopback
   * address, off otherwise. true/false force it.
   */
  dnsRebindingProtection?: boolean;
  /**
   * Accepted Host values: bare hostnames match any port, "host:port" matches exactly. Default:
   * localhost, 127.0.0.1, [::1]. Read on the first request it is checked against: an edit in place
   * after that is not seen (make the handler with a new array to change the list).
   */
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

/** The port a URL names, or its scheme's default. */
export function urlPort(u: URL): number {
  return u.port === "" ? (u.protocol === "https:" ? 443 : 80) : Number(u.port);
}

export function isLoopbackAddress(address: string | undefined): boolean {
  return !!address && (address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127."));
}

/**
 * A Host header is `host[:port]` and nothing else (RFC 9110 §7.2): a reg-name, an IPv4 address or
 * a bracketed IPv6 address, then an optional decimal port. Anything else (userinfo, paths,
 * `localhost:80@evil.example`) is refused outright rather than guessed at. Matched against the
 * header trimmed and lowercased: the whole match is `host[:port]`, the first group the host.
 */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9._~!$&'()*+,;=%-]+)(?::\d{1,5})?$/;

/** An allowed-hosts list as checked: its entries lowercased, and the Host header it last allowed. */
interface HostList {
  names: ReadonlySet<string>;
  /** A client sends the same Host on every request: its parse and lookup run once, not per request. */
  last: string | undefined;
}

/**
 * Each allowed-hosts array as first checked, keyed by the array itself (one entry per handler's
 * list, gone with it). The array is read once, on the first request checked against it: edited in
 * place after that, the edit is not seen; a handler made with a new array sees the new list.
 */
const hostLists = new WeakMap<readonly string[], HostList>();

/** The array last looked up and its entry: a process usually serves one list, so no hash per request. */
let lastHosts: readonly string[] | undefined;
let lastList: HostList | undefined;

function hostList(hosts: readonly string[]): HostList {
  if (hosts === lastHosts) return lastList!;
  let list = hostLists.get(hosts);
  if (list === undefined) {
    list = { names: new Set(hosts.map((h) => h.toLowerCase())), last: undefined };
    hostLists.set(hosts, list);
  }
  lastHosts = hosts;
  lastList = list;
  return list;
}

/** A loopback origin on the port the request arrived on (the server's own pages). */
function isOwnOrigin(origin: string, req: HttpRequestIn): boolean {
  try {
    const u = new URL(origin);
    // Another local port is another application (a dev server, a browser tab): not us. An http(s)
    // URL's hostname is lowercased by the parser.
    return (
      (u.protocol === "http:" || u.protocol === "https:") &&
      LOOPBACK_HOSTS.includes(u.hostname) &&
      urlPort(u) === req.socket.localPort
    );
  } catch {
    return false;
  }
}

/**
 * DNS-rebinding checks. A bad Host gets 421 Misdirected Request (the request was not meant for
 * this server); a present but unlisted Origin gets 403 Forbidden (2025-11-25 §Security).
 */
export function checkHostOrigin(req: HttpRequestIn, o: HostOriginOptions): Refusal | undefined {
  const list = hostList(o.allowedHosts ?? LOOPBACK_HOSTS);
  const host = req.headers.host;
  // A Host the list allowed is allowed whether the check is on or not: where it is on by default,
  // the local address (on node a getter and its getsockname per request) is read only when the
  // verdict depends on it.
  if (host === undefined || host !== list.last) {
    if (!isOn(req, o)) return undefined;
    if (typeof host !== "string" || host === "") return { status: 421, message: "Missing Host header" };
    const m = HOST_HEADER.exec(host.trim().toLowerCase());
    if (m === null) return { status: 400, message: "Malformed Host header" };
    const h = m[0];
    if (!list.names.has(h) && !list.names.has(m[1]!)) {
      return { status: 421, message: `Host not allowed: ${h.slice(0, 200)}` };
    }
    list.last = host;
  }
  const sent = req.headers.origin;
  if (sent !== undefined && isOn(req, o)) {
    const origin = typeof sent === "string" ? sent : sent.join(", ");
    if (!(o.allowedOrigins ? o.allowedOrigins.includes(origin) : isOwnOrigin(origin, req)))
      return { status: 403, message: `Origin not allowed: ${origin.slice(0, 200)}` };
  }
  return undefined;
}

/** Whether the checks apply to `req`: as configured, else when lists are given or it arrived on a loopback address. */
function isOn(req: HttpRequestIn, o: HostOriginOptions): boolean {
  return (
    o.dnsRebindingProtection ??
    (o.allowedHosts !== undefined || o.allowedOrigins !== undefined || isLoopbackAddress(req.socket.localAddress))
  );
}
