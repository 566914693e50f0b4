/**
 * MCP Apps on the client (https://github.com/modelcontextprotocol/ext-apps): the view a tool names
 * in `_meta.ui.resourceUri`, read with `resources/read` and checked to be an app view (the
 * `text/html;profile=mcp-app` profile) before its HTML is handed to whoever renders it. Loaded the
 * first time a tool's `ui()` is called.
 */
import { McpError } from "../errors.js";
import { ErrorCode } from "../jsonrpc.js";
import type { RequestOptions } from "../session/types.js";
import type { McpClient } from "./client.js";
import { fromBase64 } from "../bytes.js";

const APP_MIME = "text/html;profile=mcp-app";

/** A tool's UI: the HTML document a host renders in a sandboxed frame, and the view's settings (`_meta.ui`: csp, permissions, domain, prefersBorder). */
export interface AppView {
  readonly uri: string;
  readonly mimeType: string;
  readonly html: string;
  readonly meta: { readonly [key: string]: unknown };
}

export async function readAppView(client: McpClient, uri: string, options?: RequestOptions): Promise<AppView> {
  const result = await client.readResource(uri, options);
  const c = result.contents.find((x) => x.uri === uri) ?? result.contents[0];
  // Parameters of a media type may be spaced and their names are case-insensitive.
  const mimeType = c?.mimeType;
  if (c === undefined || typeof mimeType !== "string" || mimeType.replace(/\s+/g, "").toLowerCase() !== APP_MIME) {
    throw new McpError(
      ErrorCode.InternalError,
      `${uri} is not an MCP App view (mimeType ${JSON.stringify(mimeType ?? null)}, expected ${JSON.stringify(APP_MIME)})`,
    );
  }
  const html =
    "text" in c && typeof c.text === "string"
      ? c.text
      : "blob" in c && typeof c.blob === "string"
        ? new TextDecoder().decode(fromBase64(c.blob))
        : "";
  const meta = c._meta?.ui;
  return {
    uri,
    mimeType,
    html,
    meta: typeof meta === "object" && meta !== null && !Array.isArray(meta) ? (meta as { [key: string]: unknown }) : {},
  };
}
