/**
 * A minimal node:http <-> web Request/Response bridge: SDK v2's server speaks web-standard
 * Request/Response only, so every Node user of v2 needs one (its own is @modelcontextprotocol/node,
 * measured beside this one); the same bridge around mcpgen's fetch handler compares the two
 * handlers on one host.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export async function toRequest(req: IncomingMessage, signal: AbortSignal): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, {
    method: req.method,
    headers,
    body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    signal,
  });
}

/** Write a web Response to a node:http response (streamed bodies chunk by chunk). */
export async function sendResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // the client went away mid-stream
  }
  res.end();
}
