/**
 * The redirect half of the authorization-code flow for command-line tools (RFC 8252 §7.3): a
 * one-shot HTTP listener on 127.0.0.1 whose URL is the redirect URI. `open` shows the user the
 * authorization URL (print it, or launch a browser); the listener answers the browser's redirect
 * with a short page and hands the full URL to the OAuth client.
 */
import { createServer, type Server } from "node:http";
import type { AuthorizationUserAgent } from "./client.js";

export interface LoopbackRedirectOptions {
  /** Shows the user where to go. */
  open: (url: URL) => void | Promise<void>;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Path of the redirect URI (default "/callback"). */
  path?: string;
}

export interface LoopbackRedirect extends AuthorizationUserAgent {
  /** Stops listening. */
  close(): Promise<void>;
}

export async function listenForRedirect(options: LoopbackRedirectOptions): Promise<LoopbackRedirect> {
  const path = options.path ?? "/callback";
  let waiting: { resolve: (u: URL) => void } | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://127.0.0.1`);
    if (req.method !== "GET" || url.pathname !== path || waiting === undefined) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const ok = url.searchParams.has("code");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(
      `<!doctype html><title>Authorization</title><p>${ok ? "Authorization complete" : "Authorization was not granted"}. You can close this window.</p>`,
    );
    const w = waiting;
    waiting = undefined;
    w.resolve(new URL(url.pathname + url.search, redirectBase));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  const redirectBase = `http://127.0.0.1:${port}`;
  return {
    redirectUri: `${redirectBase}${path}`,
    async authorize(url: URL, signal: AbortSignal): Promise<URL> {
      if (waiting !== undefined) throw new Error("an authorization is already waiting for its redirect");
      const got = new Promise<URL>((resolve, reject) => {
        waiting = { resolve };
        signal.addEventListener(
          "abort",
          () => {
            waiting = undefined;
            reject(new Error("the authorization in the browser did not complete in time"));
          },
          { once: true },
        );
      });
      await options.open(url);
      return got;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
