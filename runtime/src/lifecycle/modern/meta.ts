/**
 * Per-request `_meta` of the 2026-07-28 era
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/index, "Per-request protocol
 * fields"), checked in the recommended order: required keys (-32602), then the protocol version
 * (-32022 with `supported`/`requested`), then the optional keys' shapes. Method and capability
 * checks (-32601, -32021) follow in the policy and the handlers.
 */
import type { ProtocolBinding } from "../../abi.js";
import { ErrorCode, type JSONRPCErrorObject, isObject } from "../../jsonrpc.js";
import { pointerToken } from "../../issue-sites.js";
import { loggingLevels, type LoggingLevel } from "../../mcp-types.js";
import type { Params } from "../../session/types.js";
import type { Capabilities, Implementation } from "../common/types.js";
import { MetaKey } from "./wire.js";

const REQUIRED = [MetaKey.protocolVersion, MetaKey.clientCapabilities] as const;

/** The `_meta` object of `params`, if it is one. */
export function requestMeta(params: Params | undefined): Record<string, unknown> | undefined {
  const meta = params?._meta;
  return isObject(meta) ? meta : undefined;
}

/** Whether a request declares itself modern: its `_meta` names a protocol version. */
export function declaresModern(params: unknown): boolean {
  if (!isObject(params)) return false;
  const meta = params._meta;
  return isObject(meta) && meta[MetaKey.protocolVersion] !== undefined;
}

export function unsupportedVersion(
  requested: unknown,
  supported: readonly string[],
  served?: readonly string[],
): JSONRPCErrorObject {
  const text = typeof requested === "string" ? requested : JSON.stringify(requested);
  const legacy = typeof requested === "string" && served !== undefined && served.includes(requested);
  return {
    code: ErrorCode.UnsupportedProtocolVersion,
    message: legacy
      ? `Unsupported protocol version: ${text} is served only through initialize (the session lifecycle); per-request _meta needs one of ${supported.join(", ")}`
      : `Unsupported protocol version: ${text} (supported: ${supported.join(", ")})`,
    data: { supported: [...supported], requested: String(text) },
  };
}

/**
 * The binding a modern request runs under, or the error it is refused with. `modern` maps the
 * 2026-era revisions this server serves; `supported` is what `-32022` and `server/discover` list.
 */
export function checkRequestMeta(
  params: Params | undefined,
  modern: Pick<ReadonlyMap<string, ProtocolBinding>, "get" | "has">,
  supported: readonly string[],
): ProtocolBinding | JSONRPCErrorObject {
  const meta = params?._meta;
  if (!isObject(meta)) {
    return {
      code: ErrorCode.InvalidParams,
      message: `Invalid params: params._meta is required and must carry ${REQUIRED.join(" and ")}`,
      data: { pointer: "/params/_meta", missing: [...REQUIRED] },
    };
  }
  if (meta[MetaKey.protocolVersion] === undefined || meta[MetaKey.clientCapabilities] === undefined) {
    const missing = REQUIRED.filter((k) => meta[k] === undefined);
    return {
      code: ErrorCode.InvalidParams,
      message: `Invalid params: params._meta lacks ${missing.join(" and ")}`,
      data: { pointer: "/params/_meta", missing },
    };
  }
  const version = meta[MetaKey.protocolVersion];
  const binding = typeof version === "string" ? modern.get(version) : undefined;
  if (binding === undefined)
    return unsupportedVersion(
      version,
      supported,
      supported.filter((v) => !modern.has(v)),
    );
  if (!isObject(meta[MetaKey.clientCapabilities])) {
    return invalidMeta(MetaKey.clientCapabilities, "must be an object (ClientCapabilities; {} declares none)");
  }
  const info = meta[MetaKey.clientInfo];
  if (info !== undefined && !(isObject(info) && typeof info.name === "string" && typeof info.version === "string")) {
    return invalidMeta(MetaKey.clientInfo, "must be an Implementation object with string name and version");
  }
  const level = meta[MetaKey.logLevel];
  if (level !== undefined && !loggingLevels.includes(level as LoggingLevel)) {
    return invalidMeta(MetaKey.logLevel, `must be one of ${loggingLevels.join(", ")}`);
  }
  return binding;
}

function invalidMeta(key: string, what: string): JSONRPCErrorObject {
  const pointer = `/params/_meta/${pointerToken(key)}`;
  return { code: ErrorCode.InvalidParams, message: `Invalid params: ${pointer} ${what}`, data: { pointer } };
}

/** What a validated modern request says about its sender. */
export interface RequestIdentity {
  readonly protocolVersion: string;
  readonly capabilities: Capabilities;
  readonly clientInfo: Implementation | undefined;
  readonly logLevel: LoggingLevel | undefined;
}

/** The revision an accepted request names (checkRequestMeta made it a supported string). */
export function requestRevision(params: Params | undefined): string {
  const v = (params?._meta as Params | undefined)?.[MetaKey.protocolVersion];
  return typeof v === "string" ? v : String(v);
}

/** Read after checkRequestMeta accepted the request. */
export function identityOf(meta: Record<string, unknown> | undefined): RequestIdentity {
  return {
    protocolVersion: String(meta?.[MetaKey.protocolVersion] ?? ""),
    capabilities: (meta?.[MetaKey.clientCapabilities] as Capabilities | undefined) ?? {},
    clientInfo: meta?.[MetaKey.clientInfo] as Implementation | undefined,
    logLevel: meta?.[MetaKey.logLevel] as LoggingLevel | undefined,
  };
}
