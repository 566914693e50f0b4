/**
 * Multi round-trip requests
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr) without a state
 * machine in the handler: the handler simply runs again on every retry. Each `ctx.client.*` call of
 * a run gets a key (given by the caller, or its position among the run's calls); a call whose
 * answer is in the retry's `inputResponses` (or, from earlier rounds, in the signed `requestState`)
 * resolves at once; a call without one is recorded and never settles. One macrotask after the first
 * unanswered call, the run is abandoned and the request answers an InputRequiredResult listing
 * every unanswered call made so far (calls issued together, e.g. under Promise.all, share one
 * round), with a new `requestState` carrying the answers used. No rejection is thrown into handler
 * code, so a handler cannot swallow the interruption by accident.
 */
import { ErrorCode, isObject } from "../../jsonrpc.js";
import { McpError } from "../../errors.js";
import type { Params } from "../../session/types.js";
import { MethodSet } from "../../session/method-set.js";
import { INPUT_REQUIRED_METHODS } from "./wire.js";
import { elicitationModeAllowed, hasCapability } from "../common/capabilities.js";
import type { Capabilities } from "../common/types.js";
import { RequestStateCodec, paramsDigest, type OpenedState } from "./request-state.js";
import { afterIo } from "../../after-io.js";
import { answerProblem, type InputMethod } from "./input-answers.js";
import { pointerToken } from "../../issue-sites.js";

/** Methods that may answer InputRequiredResult (the server's own set: its last answer is its own). */
export const INPUT_METHODS = new MethodSet(INPUT_REQUIRED_METHODS);

export interface InputRequest {
  readonly method: InputMethod;
  readonly params?: Params;
}

export interface InputRequiredResult {
  resultType: "input_required";
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
  [key: string]: unknown;
}

/** Keys a run may use without a caller-chosen key: `elicitation-1`, `sampling-2`, `roots-3`. */
const SHORT: Record<InputMethod, string> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
};
/** Cap on input requests one run may make (each becomes part of a result). */
const MAX_INPUTS = 64;
const KEY = /^[\x21-\x7e]{1,128}$/;

/** The capability an input request needs, as a ClientCapabilities fragment; undefined when declared. */
function missingCapability(
  method: InputMethod,
  params: Params | undefined,
  caps: Capabilities,
): Record<string, unknown> | undefined {
  if (method === "elicitation/create") {
    const mode = params?.mode ?? "form";
    return elicitationModeAllowed(caps, mode) ? undefined : { elicitation: { [String(mode)]: {} } };
  }
  if (method === "sampling/createMessage") {
    if (!hasCapability(caps, "sampling")) return { sampling: {} };
    if ((params?.tools !== undefined || params?.toolChoice !== undefined) && !hasCapability(caps, "sampling.tools"))
      return { sampling: { tools: {} } };
    return undefined;
  }
  return hasCapability(caps, "roots") ? undefined : { roots: {} };
}

function blockedNow(round: InputRound): void {
  round.onblocked?.();
}

/** The input bookkeeping of one run of a handler. */
export class InputRound {
  // Most runs never ask for input: the maps and the key set exist only once a call asks.
  private unanswered: Map<string, InputRequest> | undefined = undefined;
  private consumed: Map<string, unknown> | undefined = undefined;
  private keySet: Set<string> | undefined = undefined;
  private calls = 0;
  constructor(
    private readonly answers: Readonly<Record<string, unknown>>,
    private readonly capabilities: Capabilities,
    /** Whether this request may answer input_required at all. */
    private readonly allowed: boolean,
    private readonly method: string,
    /** Called one macrotask after the first unanswered call (calls made meanwhile join the round); set by then. */
    public onblocked: (() => void) | undefined,
  ) {}

  /** Unanswered calls of this run, by key, in call order. */
  get missing(): Map<string, InputRequest> {
    return (this.unanswered ??= new Map());
  }

  /** Answers this run consumed, carried into the next requestState. */
  get used(): Map<string, unknown> {
    return (this.consumed ??= new Map());
  }

  private get keys(): Set<string> {
    return (this.keySet ??= new Set());
  }

  get isBlocked(): boolean {
    return this.unanswered !== undefined && this.unanswered.size > 0;
  }

  /**
   * Continue the numbering and key set of `before` (a run that changes rounds midway, as a call
   * becoming a task does), so a positional key never names an earlier call's answer.
   */
  continueFrom(before: InputRound): this {
    this.calls = before.calls;
    if (before.keySet !== undefined) for (const k of before.keySet) this.keys.add(k);
    return this;
  }

  /** One `ctx.client.*` call: its answer, or a promise that never settles (the run is abandoned). */
  ask(method: InputMethod, params: Params | undefined, key?: string): Promise<unknown> {
    const k = key ?? `${SHORT[method]}-${this.calls + 1}`;
    this.calls++;
    if (!this.allowed) {
      return Promise.reject(
        new McpError(
          ErrorCode.InternalError,
          `Internal error: ${this.method} cannot ask the client for input (only tools/call, prompts/get and resources/read can, in 2026-07-28)`,
        ),
      );
    }
    if (!KEY.test(k))
      return Promise.reject(new TypeError(`input key ${JSON.stringify(k)} must be 1-128 visible ASCII characters`));
    if (this.keys.has(k))
      return Promise.reject(new TypeError(`input key ${JSON.stringify(k)} is used twice in one ${this.method} run`));
    if (this.calls > MAX_INPUTS)
      return Promise.reject(new RangeError(`more than ${MAX_INPUTS} input requests in one ${this.method} run`));
    this.keys.add(k);
    const required = missingCapability(method, params, this.capabilities);
    if (required !== undefined) {
      return Promise.reject(
        new McpError(
          ErrorCode.MissingRequiredClientCapability,
          `Missing required client capability: ${method} needs ${JSON.stringify(required)}`,
          { requiredCapabilities: required },
        ),
      );
    }
    // Own keys only: "constructor" or "__proto__" must not find Object.prototype members.
    const answer = Object.prototype.hasOwnProperty.call(this.answers, k) ? this.answers[k] : undefined;
    if (answer !== undefined) {
      // Checked here, against what this call asked for: the params validator took any object.
      const bad = answerProblem(method, answer);
      if (bad !== undefined) {
        return Promise.reject(
          new McpError(
            ErrorCode.InvalidParams,
            `Invalid params: inputResponses[${JSON.stringify(k)}]${bad.at} (${method}) ${bad.problem}`,
            { pointer: `/params/inputResponses/${pointerToken(k)}${bad.at}` },
          ),
        );
      }
      this.used.set(k, answer);
      return Promise.resolve(answer);
    }
    if (this.missing.size === 0) afterIo(blockedNow, this);
    this.missing.set(k, params === undefined ? { method } : { method, params });
    return new Promise<never>(() => {});
  }
}

/** What a retry brings: the answers to use, and the claimed state to give back if the retry is cancelled. */
export interface RetryInput {
  readonly answers: Readonly<Record<string, unknown>>;
  readonly opened: OpenedState | undefined;
}

/** A first run (no retry): nothing answered, nothing claimed; shared, so frozen. */
const FIRST_RUN: RetryInput = Object.freeze({ answers: Object.freeze({}), opened: undefined });

/**
 * Verify `requestState` and merge its answers with `inputResponses`; throws McpError(-32602) on bad
 * input. Synchronous unless there is a state to verify (WebCrypto answers asynchronously): a first
 * run costs no promise.
 */
export function retryInput(
  codec: RequestStateCodec,
  method: string,
  params: Params | undefined,
): RetryInput | Promise<RetryInput> {
  const state = params?.requestState;
  const responses = params?.inputResponses;
  if (state === undefined && responses === undefined) return FIRST_RUN;
  if (responses !== undefined && !isObject(responses)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      "Invalid params: inputResponses must be an object keyed by input request key",
      { pointer: "/params/inputResponses" },
    );
  }
  if (state === undefined) return { answers: { ...(responses as Record<string, unknown>) }, opened: undefined };
  return openState(codec, state, method, params, responses as Record<string, unknown> | undefined);
}

async function openState(
  codec: RequestStateCodec,
  state: unknown,
  method: string,
  params: Params | undefined,
  responses: Record<string, unknown> | undefined,
): Promise<RetryInput> {
  const r = await codec.open(state, method, await paramsDigest(params));
  if ("code" in r) throw new McpError(r.code, r.message, r.data);
  // A shared claims store answers with a promise.
  if (!(await codec.claim(r))) {
    const e = RequestStateCodec.replayed();
    throw new McpError(e.code, e.message, e.data);
  }
  const opened: OpenedState = r;
  // Earlier rounds' answers (signed) win over a re-sent answer for the same key.
  return { answers: { ...responses, ...opened.answers }, opened };
}

/** The InputRequiredResult of a blocked run. */
export async function inputRequired(
  codec: RequestStateCodec,
  method: string,
  params: Params | undefined,
  round: InputRound,
): Promise<InputRequiredResult> {
  const inputRequests = Object.fromEntries(round.missing);
  const used = Object.fromEntries(round.used);
  return {
    resultType: "input_required",
    inputRequests,
    requestState: await codec.mint(method, await paramsDigest(params), used),
  };
}
