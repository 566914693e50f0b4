/**
 * The generated weather server (its `set_alert` needs `weather:alerts` by its manifest) behind a
 * resource-server guard trusting a local JWT issuer, served over real HTTP on 127.0.0.1 in the
 * shapes the authorization tests probe: the Streamable HTTP handler with the legacy HTTP+SSE
 * handler mounted beside it, or the legacy handler alone. Plus the raw HTTP a client speaks to it.
 */
import {
  createServer,
  request,
  Agent,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import {
  createLegacySseHandler,
  createStreamableHttpHandler,
  type LegacySseHandler,
  type StreamableHttpHandler,
} from "@mcpgen/runtime/http";
import {
  createResourceServer,
  jwtVerifier,
  type AuthInfo,
  type JwtVerifierOptions,
  type ResourceServerGuard,
  type TokenVerifier,
} from "@mcpgen/runtime/auth";
import { handlers } from "../../../examples/weather/src/handlers.js";
import { createWeatherExampleServer } from "../../../examples/weather/src/mcp/server.js";
import { definition } from "../../../examples/weather/src/mcp/definition.js";
import type { JSONRPCMessage } from "@mcpgen/runtime";
import type { LocalIssuer } from "./jwt-issuer.js";
import { OpenStream, waitFor, within } from "../transports/helpers.js";

export interface GuardedOptions {
  /** "streamable": the Streamable HTTP handler guarded, legacy SSE mounted through its `legacySse` option (default); "legacy": the legacy SSE handler alone, guarded. */
  shape?: "streamable" | "legacy";
  /** The legacy SSE handler's own guard when mounted: none (default), or one requiring the extra scope `weather:sse`. */
  legacyGuard?: "none" | "extra";
  /** Give the guard the manifest's per-tool scopes (default true). */
  toolScopes?: boolean;
  /** jwtVerifier options beyond issuer, JWKS and audience. */
  verifier?: Partial<JwtVerifierOptions>;
  /** Each verification first waits this many ms (read per request), as a remote introspection would. */
  verifyDelay?: { ms: number };
}

export interface Guarded {
  origin: string;
  /** The protected resource: `<origin>/mcp` (streamable) or `<origin>/sse` (legacy alone). */
  resource: string;
  metadataUrl: string;
  streamable: StreamableHttpHandler | undefined;
  legacy: LegacySseHandler;
  /** ctx.auth of every weather tool call that ran. */
  seen: (AuthInfo | undefined)[];
  close(): Promise<void>;
}

export async function startGuarded(issuer: LocalIssuer, o: GuardedOptions = {}): Promise<Guarded> {
  const seen: (AuthInfo | undefined)[] = [];
  const weather = createWeatherExampleServer({
    ...handlers,
    tools: {
      ...handlers.tools,
      getForecast: (input, ctx) => (seen.push(ctx.auth), handlers.tools.getForecast(input, ctx)),
      setAlert: (input, ctx) => (seen.push(ctx.auth), handlers.tools.setAlert(input, ctx)),
    },
  });
  const box: { handle?: (req: IncomingMessage, res: ServerResponse) => void } = {};
  const server = createServer((req, res) => box.handle!(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const shape = o.shape ?? "streamable";
  const resource = `${origin}${shape === "legacy" ? "/sse" : "/mcp"}`;
  const jwt = jwtVerifier({ issuer: issuer.issuer, jwksUri: issuer.jwksUri, audience: resource, ...o.verifier });
  const verifier: TokenVerifier = {
    async verify(token, req) {
      if (o.verifyDelay && o.verifyDelay.ms > 0) await new Promise((r) => setTimeout(r, o.verifyDelay!.ms));
      return jwt.verify(token, req);
    },
  };
  const guard = (requiredScopes: string[]): ResourceServerGuard =>
    createResourceServer({
      resource,
      authorizationServers: [issuer.issuer],
      verifier,
      requiredScopes,
      toolScopes: o.toolScopes === false ? undefined : definition.toolScopes,
    });
  const auth = guard(["weather:read"]);
  const onsession = async (t: Parameters<typeof weather.connect>[0]): Promise<void> => void (await weather.connect(t));
  // Built as plain objects, not typed literals: the options a user passes, whatever the declared type says.
  const legacyOptions =
    shape === "legacy"
      ? { onsession, keepAliveMs: 0, auth }
      : o.legacyGuard === "extra"
        ? { onsession, keepAliveMs: 0, auth: guard(["weather:read", "weather:sse"]) }
        : { onsession, keepAliveMs: 0 };
  const legacy = createLegacySseHandler(legacyOptions);
  const streamable =
    shape === "streamable"
      ? createStreamableHttpHandler({ onsession, keepAliveMs: 0, auth, legacySse: legacy })
      : undefined;
  box.handle = streamable ? (req, res) => streamable.handle(req, res) : (req, res) => void legacy.handle(req, res);
  return {
    origin,
    resource,
    metadataUrl: auth.metadataUrl,
    streamable,
    legacy,
    seen,
    async close() {
      await (streamable ?? legacy).close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const agent = new Agent({ keepAlive: false });

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body, or "" for an SSE stream (its headers are all the answer needs). */
  body: string;
}

/** One request; resolves with the whole body, or at the headers of an SSE stream (then cut). */
export function send(
  url: string | URL,
  method: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return within(
    new Promise<Answer>((resolve, reject) => {
      const req = request(url, { method, headers, agent }, (res) => {
        if (String(res.headers["content-type"]).startsWith("text/event-stream")) {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: "" });
          req.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    }),
    5000,
    `${method} ${String(url)}`,
  );
}

export const bearer = (token: string | undefined): Record<string, string> =>
  token === undefined ? {} : { authorization: `Bearer ${token}` };
export const JSON_POST = { "content-type": "application/json", accept: "application/json, text/event-stream" };
export const rpc = (id: number, method: string, params: unknown = {}): string =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });
export const INITIALIZE = {
  protocolVersion: "2025-11-25",
  capabilities: {},
  clientInfo: { name: "authpaths-test", version: "1.0.0" },
};

/** A legacy HTTP+SSE connection: the GET stream, and POSTs to the endpoint it announced, all with `token`. */
export async function openSse(
  sseUrl: string,
  token: string | undefined,
): Promise<{
  stream: OpenStream;
  endpoint: URL;
  /** POST to the endpoint with the connection's token, or `as` (null: none). */
  post(body: string, as?: string | null): Promise<Answer>;
  /** JSON-RPC messages received on the stream so far. */
  messages(): JSONRPCMessage[];
  reply(id: number): Promise<Record<string, unknown>>;
}> {
  const stream = await OpenStream.open(sseUrl, { headers: { accept: "text/event-stream", ...bearer(token) } });
  if (stream.status !== 200) {
    stream.close();
    throw new Error(`GET ${sseUrl}: HTTP ${stream.status}`);
  }
  await waitFor(() => stream.events().length >= 1, 2000, "endpoint event");
  const endpoint = new URL(stream.events()[0]!.data, sseUrl);
  const messages = (): JSONRPCMessage[] =>
    stream
      .events()
      .filter((e) => e.event === "message")
      .map((e) => JSON.parse(e.data) as JSONRPCMessage);
  const replyTo = (id: number) => messages().find((m) => "id" in m && m.id === id && !("method" in m));
  return {
    stream,
    endpoint,
    post: (body, as = token) =>
      send(endpoint, "POST", { "content-type": "application/json", ...bearer(as ?? undefined) }, body),
    messages,
    async reply(id) {
      await waitFor(() => replyTo(id) !== undefined, 3000, `reply ${id}`);
      return replyTo(id) as unknown as Record<string, unknown>;
    },
  };
}
