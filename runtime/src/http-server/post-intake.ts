/**
 * Reading a Streamable HTTP POST up to where a session takes it: a JSON body the client can be
 * answered for, read within the body bounds, parsed within maxDepth, one JSON-RPC message or a
 * batch of them with ids a reply can be routed by, `initialize` alone. Every refusal is answered
 * here, before the request is admitted: a body too large or too deep is admitted only for what it
 * answers (see `unreadable`).
 */
import type { JSONRPCMessage, RequestId } from "../jsonrpc.js";
import type { MessageOutline } from "../framing/scan.js";
import { BUFFER_FULL_HEADERS, BodyBufferFullError, type BufferedBodies } from "./buffered-bodies.js";
import { BodyTimeoutError, BodyTooLargeError, accepts, headerValue, readBodyWith, sendJsonError } from "./http-util.js";
import { badRequestId, isJsonMediaType, parseBody } from "./post-checks.js";
import type { HttpReply, HttpRequestIn } from "../http-exchange.js";
import { utf8Text } from "../bytes.js";

export interface PostIntake {
  readonly mode: "auto" | "json" | "sse";
  readonly maxBody: number;
  readonly bodyTimeoutMs: number;
  readonly maxDepth: number;
  readonly buffered: BufferedBodies;
  readonly report: (e: Error) => void;
  /**
   * The POST's body, once its media type and Accept passed; undefined once refused (answered).
   * bodyOf, as it arrives; the legacy shape's endpoint (endpoint-with-legacy.ts) takes a body node
   * has buffered already and reads an oversized one POSTed to a live session on for its id.
   */
  body(req: HttpRequestIn, res: HttpReply): Uint8Array | Promise<Uint8Array | undefined>;
  /** A POST read and checked, served (once admitted, under a guard); its promise settles once it is. */
  admitted(req: HttpRequestIn, res: HttpReply, post: ReadPost): Promise<void> | undefined;
  /**
   * Responses among messages too large or too deep to deliver fail the requests they answer now:
   * false once the request was refused while being admitted for that (401/403).
   */
  unreadable(
    req: HttpRequestIn,
    res: HttpReply,
    outlines: readonly MessageOutline[],
    code: number,
    why: string,
  ): Promise<boolean>;
}

/** A POST read and checked. */
export interface ReadPost {
  /** The body as parsed: one message, or a batch. */
  readonly parsed: object;
  readonly batch: boolean;
  readonly list: JSONRPCMessage[];
  /** Ids of the requests among them. */
  readonly requestIds: RequestId[];
  /** It is an `initialize` request (then alone). */
  readonly initialize: boolean;
  readonly allowJson: boolean;
  readonly allowSse: boolean;
  /** About the heap the parsed body takes (MessageContext.bytes). */
  readonly bytes: number;
}

/** Answer a refused POST and log why. */
export function refuse(
  report: (e: Error) => void,
  res: HttpReply,
  status: number,
  id: RequestId | null,
  code: number,
  message: string,
): void {
  report(new Error(`POST refused (${status}): ${message}`));
  sendJsonError(res, status, code, message, undefined, id);
}

const AFTER_PARSE: Promise<void> = Promise.resolve();

/** The Accept header last read and whether it admits JSON and SSE (absent: both): a client sends the same one on every POST. */
let lastAccept: string | undefined;
let acceptsJson = true;
let acceptsSse = true;

/**
 * The POST `req` read and checked, then handed to `intake.admitted`, or refused (answered). One
 * async frame from the request to its session: awaiting a second one costs every POST a promise
 * and a microtask more.
 */
export async function takePost(req: HttpRequestIn, res: HttpReply, intake: PostIntake): Promise<void> {
  const ctype = headerValue(req, "content-type");
  if (!isJsonMediaType(ctype)) {
    sendJsonError(res, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    return;
  }
  const accept = headerValue(req, "accept");
  if (accept !== lastAccept) {
    lastAccept = accept;
    acceptsJson = accepts(accept, "application/json");
    acceptsSse = accepts(accept, "text/event-stream");
  }
  const allowJson = intake.mode !== "sse" && acceptsJson;
  const allowSse = intake.mode !== "json" && acceptsSse;
  if (!allowJson && !allowSse) {
    sendJsonError(res, 406, -32000, "Not Acceptable: Accept must list application/json and text/event-stream");
    return;
  }
  // node parses a body that came with its headers once the turn that emitted the request is over
  // (a fetch host's request has none buffered: it does not wait); one taken then costs no promise.
  if (req.read !== undefined) await AFTER_PARSE;
  const had = intake.body(req, res);
  const body = had instanceof Uint8Array ? had : await had;
  if (body === undefined) return;
  const read = parseBody(utf8Text(body), intake.maxDepth);
  if (!("value" in read)) {
    if (
      read.outlines !== undefined &&
      !(await intake.unreadable(
        req,
        res,
        read.outlines,
        read.code,
        `nests deeper than ${intake.maxDepth} levels (maxDepth)`,
      ))
    )
      return;
    refuse(intake.report, res, read.status, read.id, read.code, read.message);
    return;
  }
  const post = classify(read.value, allowJson, allowSse, read.bytes);
  if (post === undefined) {
    sendJsonError(res, 400, -32600, "Invalid Request: expected a JSON-RPC message or batch");
    return;
  }
  if (post.initialize && (post.batch || post.list.length > 1)) {
    sendJsonError(res, 400, -32600, "Invalid Request: initialize must be sent alone, not in a batch");
    return;
  }
  const badId = badRequestId(post.list);
  if (badId) {
    refuse(intake.report, res, badId.status, badId.id, badId.code, badId.message);
    return;
  }
  await intake.admitted(req, res, post);
}

/** The body as it arrives, within maxBodyBytes, bodyTimeoutMs and maxBufferedBodyBytes; undefined once refused. */
export async function bodyOf(req: HttpRequestIn, res: HttpReply, intake: PostIntake): Promise<Uint8Array | undefined> {
  try {
    return await readBodyWith(req, intake.maxBody, intake.bodyTimeoutMs, undefined, intake.buffered);
  } catch (e) {
    refuseBody(res, intake, e);
    return undefined;
  }
}

/** Answers a body that could not be read: 413, 408 or 503 with why; the client gone (or a host error), no answer. */
export function refuseBody(res: HttpReply, intake: PostIntake, e: unknown): void {
  const refusal =
    e instanceof BodyTooLargeError
      ? ([413, "Payload Too Large", CLOSE] as const)
      : e instanceof BodyTimeoutError
        ? ([408, "Request Timeout", CLOSE] as const)
        : e instanceof BodyBufferFullError
          ? ([503, "Service Unavailable", BUFFER_FULL_HEADERS] as const)
          : undefined;
  if (refusal === undefined) {
    if (!res.headersSent) res.destroy();
    return;
  }
  const [status, title, headers] = refusal;
  const why = (e as Error).message;
  intake.report(new Error(`POST refused (${status}): ${why}`));
  sendJsonError(res, status, -32000, `${title}: ${why}`, headers);
}

/** Headers of a refusal whose body was not read to its end: the connection cannot carry another request. */
const CLOSE: Readonly<Record<string, string>> = { connection: "close" };

/** The POST's messages sorted out; undefined when the body is no JSON-RPC message or batch of them. */
function classify(parsed: unknown, allowJson: boolean, allowSse: boolean, bytes: number): ReadPost | undefined {
  if (parsed === null || typeof parsed !== "object") return undefined;
  const batch = Array.isArray(parsed);
  const list = (batch ? parsed : [parsed]) as JSONRPCMessage[];
  if (list.length === 0) return undefined;
  const requestIds: RequestId[] = [];
  let initialize = false;
  for (const m of list) {
    if (m === null || typeof m !== "object" || Array.isArray(m)) return undefined;
    if ("method" in m) {
      if ("id" in m && m.id !== undefined && m.id !== null) {
        requestIds.push(m.id);
        if (m.method === "initialize") initialize = true;
      }
    } else if (!("id" in m)) return undefined;
  }
  return { parsed, batch, list, requestIds, initialize, allowJson, allowSse, bytes };
}
