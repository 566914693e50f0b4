import { OAuthFlowError } from "./errors.js";

export interface AuthHttpLimits {
  /** Per exchange with an authorization party (default 10000 ms). */
  timeoutMs?: number;
  /** Largest response body accepted from an authorization party (default 256 KiB). */
  maxBodyBytes?: number;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

/**
 * A fetch for metadata, registration and token exchanges that never follows redirects (a
 * redirect is the caller's business), gives up after `timeoutMs`, and refuses bodies larger than
 * `maxBodyBytes` instead of buffering them: a hostile server cannot make the client hang or
 * exhaust memory. The returned Response holds the already-read body.
 */
export function boundedFetch(
  limits: AuthHttpLimits = {},
): (url: string | URL, init?: RequestInit) => Promise<Response> {
  const timeoutMs = limits.timeoutMs ?? 10_000;
  const maxBytes = limits.maxBodyBytes ?? 256 * 1024;
  const f = limits.fetch ?? fetch;
  return async (url, init = {}) => {
    const target = new URL(String(url));
    const where = `${init.method ?? "GET"} ${target.origin}${target.pathname}`;
    const signal = init.signal
      ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs)])
      : AbortSignal.timeout(timeoutMs);
    let res: Response;
    try {
      res = await f(target, { ...init, redirect: "manual", signal });
    } catch (e) {
      const why = (e as Error).name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : (e as Error).message;
      throw new OAuthFlowError("http", `${where}: ${why}`, { cause: e });
    }
    const declared = Number(res.headers.get("content-length") ?? "NaN");
    if (declared > maxBytes) {
      await res.body?.cancel().catch(() => {});
      throw new OAuthFlowError("http", `${where}: response of ${declared} bytes exceeds the ${maxBytes}-byte limit`);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (res.body) {
      const reader = res.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > maxBytes) {
            await reader.cancel().catch(() => {});
            throw new OAuthFlowError("http", `${where}: response exceeds the ${maxBytes}-byte limit`);
          }
          chunks.push(value);
        }
      } catch (e) {
        if (e instanceof OAuthFlowError) throw e;
        throw new OAuthFlowError("http", `${where}: reading the response failed: ${(e as Error).message}`, {
          cause: e,
        });
      }
    }
    const body = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      body.set(c, at);
      at += c.byteLength;
    }
    const nullBody = res.status === 204 || res.status === 205 || res.status === 304;
    return new Response(nullBody ? null : body, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}

/** JSON body of a bounded response, or a typed error naming the URL. */
export async function jsonObject(
  res: Response,
  what: string,
  code: "resource_metadata" | "server_metadata" | "registration" | "token",
): Promise<Record<string, unknown>> {
  let v: unknown;
  try {
    v = JSON.parse(await res.text());
  } catch {
    throw new OAuthFlowError(code, `${what}: body is not JSON`);
  }
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new OAuthFlowError(code, `${what}: body is not a JSON object`);
  return v as Record<string, unknown>;
}
