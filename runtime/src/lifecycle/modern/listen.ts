/**
 * `subscriptions/listen`
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions): the open
 * listens of a server, each with the subset of its filter the server honours, fed by the server's
 * change notifications. A listen lives as long as its request: cancelling it (stdio
 * `notifications/cancelled`, HTTP stream close) or closing the connection removes it, and with it
 * everything it held. Listens are counted per session and per principal as well as per server, so
 * one client cannot take every slot.
 */
import { ErrorCode } from "../../jsonrpc.js";
import { McpError } from "../../errors.js";
import type { Params } from "../../session/types.js";
import {
  LIMIT_EXCEEDED_CODE,
  MAX_LISTENS as DEFAULT_MAX_LISTENS,
  MAX_LISTENS_PER_PRINCIPAL,
  MAX_LISTENS_PER_SESSION,
  MAX_LISTEN_SUBSCRIPTIONS,
  MAX_LISTEN_URI_CHARS,
} from "../../limits.js";
import { hasCapability } from "../common/capabilities.js";
import type { Capabilities } from "../common/types.js";

import { TASKS_EXTENSION, hasExtension, type SubscriptionFilter } from "./wire.js";
export type { SubscriptionFilter };

/** Most resource URIs one listen may subscribe to. */
export const MAX_RESOURCE_SUBSCRIPTIONS = MAX_LISTEN_SUBSCRIPTIONS;
/** Most listens open at once on one server by default (see ListenLimits.max). */
export const MAX_LISTENS = DEFAULT_MAX_LISTENS;

/** Each list flag of a filter, with the capability that lets a server honour it. */
const LIST_FLAGS = [
  ["toolsListChanged", "tools.listChanged"],
  ["promptsListChanged", "prompts.listChanged"],
  ["resourcesListChanged", "resources.listChanged"],
] as const;

/** Most task ids one listen may follow. */
export const MAX_TASK_IDS = MAX_LISTEN_SUBSCRIPTIONS;

/** Why `uris` cannot be the `resourceSubscriptions` of a listen, or undefined when it can. */
function urisProblem(uris: unknown): string | undefined {
  if (!Array.isArray(uris) || !uris.every((u) => typeof u === "string")) {
    return "resourceSubscriptions must be an array of URIs";
  }
  if (uris.length > MAX_RESOURCE_SUBSCRIPTIONS)
    return `at most ${MAX_RESOURCE_SUBSCRIPTIONS} resourceSubscriptions per listen`;
  // The URIs are held as long as the listen is open: their size is bounded, not only their count.
  let chars = 0;
  for (const u of uris as string[]) chars += u.length;
  return chars > MAX_LISTEN_URI_CHARS
    ? `the resourceSubscriptions of one listen may hold at most ${MAX_LISTEN_URI_CHARS} characters`
    : undefined;
}

/**
 * The part of a requested filter this server honours (only what its capabilities declare);
 * `taskIds` needs the client to declare the tasks extension on the listen (-32021 otherwise).
 */
export function honouredFilter(requested: unknown, caps: Capabilities, clientCaps?: Capabilities): SubscriptionFilter {
  if (typeof requested !== "object" || requested === null || Array.isArray(requested)) {
    throw new McpError(ErrorCode.InvalidParams, "Invalid params: notifications must be a SubscriptionFilter object", {
      pointer: "/params/notifications",
    });
  }
  const r = requested as Record<string, unknown>;
  const out: SubscriptionFilter = {};
  for (const [flag, cap] of LIST_FLAGS) if (r[flag] === true && hasCapability(caps, cap)) out[flag] = true;
  const uris = r.resourceSubscriptions;
  if (uris !== undefined) {
    const problem = urisProblem(uris);
    if (problem !== undefined) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: ${problem}`, {
        pointer: "/params/notifications/resourceSubscriptions",
      });
    }
    if (hasCapability(caps, "resources.subscribe")) out.resourceSubscriptions = [...new Set(uris as string[])];
  }
  const ids = r.taskIds;
  if (ids !== undefined) {
    if (
      !Array.isArray(ids) ||
      ids.length > MAX_TASK_IDS ||
      !ids.every((u) => typeof u === "string" && u.length > 0 && u.length <= 256)
    ) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid params: taskIds must be an array of at most ${MAX_TASK_IDS} task ids`,
        { pointer: "/params/notifications/taskIds" },
      );
    }
    if (!hasExtension(clientCaps, TASKS_EXTENSION)) {
      throw new McpError(
        ErrorCode.MissingRequiredClientCapability,
        `Missing required client capability: taskIds needs the ${TASKS_EXTENSION} extension`,
        {
          requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
        },
      );
    }
    if (hasExtension(caps, TASKS_EXTENSION)) out.taskIds = [...new Set(ids as string[])];
  }
  return out;
}

export interface Listen {
  readonly filter: SubscriptionFilter;
  readonly uris: ReadonlySet<string>;
  /** Send one notification on the listen's stream (the hub adds `subscriptionId`). */
  readonly send: (method: string, params: Params | undefined) => Promise<void>;
  /** Ends the listen from the server side (shutdown). */
  readonly end: () => void;
}

/** How many listens may be open at once: on the server, per session, per principal. */
export interface ListenLimits {
  /** On the whole server (default 10 000). */
  max?: number;
  /** Per session: a Streamable HTTP session, a stdio connection, a stateless POST (default 100). */
  perSession?: number;
  /** Per principal (`principalKey` of the request's `ctx.auth`), across its sessions (default 1 000). */
  perPrincipal?: number;
}

/**
 * Whom a listen is counted against. `session` is one object per connection (RequestContext's
 * `connection`); `principal` the `principalKey` of the principal an auth guard admitted. Without a
 * principal the session is its own principal.
 */
export interface ListenOwner {
  readonly session?: object | undefined;
  readonly principal?: string | undefined;
}

/** Count `key` up or down in `counts` (gone at zero, so the map holds only owners with listens). */
function count(counts: Map<unknown, number>, key: unknown, by: 1 | -1): void {
  if (key === undefined) return;
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}

/** Who holds the listens each limit counts, for the refusal's message. */
const HOLDER = { perSession: "this session", perPrincipal: "this principal", max: "this server" } as const;

export class ListenHub {
  /** Each open listen with the keys it is counted under. */
  private readonly listens = new Map<Listen, { session: unknown; principal: unknown }>();
  /** Open listens per session, and per principal (the session when there is none); owners with none are absent. */
  private readonly bySession = new Map<unknown, number>();
  private readonly byPrincipal = new Map<unknown, number>();
  private readonly limits: Required<ListenLimits>;

  constructor(
    private readonly report: (e: Error) => void,
    limits: ListenLimits = {},
  ) {
    this.limits = { max: MAX_LISTENS, perSession: MAX_LISTENS_PER_SESSION, perPrincipal: MAX_LISTENS_PER_PRINCIPAL };
    for (const k of ["max", "perSession", "perPrincipal"] as const) {
      const v = limits[k];
      if (v === undefined) continue;
      if (!Number.isInteger(v) || v < 1)
        throw new TypeError(`ListenHub: ${k} must be a positive integer, got ${String(v)}`);
      this.limits[k] = v;
    }
  }

  get size(): number {
    return this.listens.size;
  }

  /**
   * The open listens. @internal For the server's broadcast (server/broadcast.ts), which delivers
   * changes: the delivery lives there so that a server announcing none carries none of it.
   */
  open(): IterableIterator<Listen> {
    return this.listens.keys();
  }

  /** No room for another listen on the server. */
  get full(): boolean {
    return this.listens.size >= this.limits.max;
  }

  /**
   * Register a listen of `owner`; refused with -32000 (data.limit naming the option) when its
   * session, its principal or the server already holds its share. The owner's own shares are
   * checked first, so a client that floods is told about its own limit.
   */
  add(listen: Listen, owner: ListenOwner = {}): void {
    const { session } = owner;
    const principal = owner.principal ?? session;
    const l = this.limits;
    const over =
      session !== undefined && (this.bySession.get(session) ?? 0) >= l.perSession
        ? "perSession"
        : principal !== undefined && (this.byPrincipal.get(principal) ?? 0) >= l.perPrincipal
          ? "perPrincipal"
          : this.listens.size >= l.max
            ? "max"
            : undefined;
    if (over !== undefined) {
      const what = `${HOLDER[over]} already holds ${l[over]} open listens`;
      this.report(new Error(`subscriptions/listen refused: ${what} (listens.${over})`));
      throw new McpError(LIMIT_EXCEEDED_CODE, `Too many listens: ${what}`, { limit: `listens.${over}`, max: l[over] });
    }
    this.listens.set(listen, { session, principal });
    count(this.bySession, session, 1);
    count(this.byPrincipal, principal, 1);
  }

  remove(listen: Listen): void {
    const owner = this.listens.get(listen);
    if (owner === undefined) return;
    this.listens.delete(listen);
    count(this.bySession, owner.session, -1);
    count(this.byPrincipal, owner.principal, -1);
  }

  /**
   * End the listens of one session (`ListenOwner.session`): its client will send nothing more,
   * so none of them could ever be cancelled. Each answers its listen request.
   */
  endSession(session: object): void {
    for (const [listen, owner] of this.listens) if (owner.session === session) listen.end();
  }

  /** End every listen (the server is closing): each answers its listen request and is removed. */
  endAll(): void {
    // oxlint-disable-next-line unicorn/no-useless-spread -- the body removes entries: iterate a snapshot
    for (const l of [...this.listens.keys()]) l.end();
    this.listens.clear();
    this.bySession.clear();
    this.byPrincipal.clear();
  }
}
