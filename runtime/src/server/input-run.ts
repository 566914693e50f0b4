/**
 * A 2026-07-28 run whose `ctx.client` calls are input requests
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr): part of the MRTR
 * code (inputs.ts), so a server asking clients for nothing carries none of it (modern.ts).
 */
import { McpError } from "../errors.js";
import type { Params, RequestContext, Result } from "../session/types.js";
import { INPUT_METHODS, inputRequired, retryInput, type RetryInput } from "../lifecycle/modern/mrtr.js";
import type { RequestStateCodec } from "../lifecycle/modern/request-state.js";
import { ModernContext, type ContextInputs } from "./modern-context.js";

/** What a run takes of the server core (core.ts), once its MRTR code is loaded. */
interface InputCore {
  readonly codec: RequestStateCodec | undefined;
  readonly inputs: ContextInputs | undefined;
  readonly report: (e: Error) => void;
}

/** Not a retry, no input allowed: nothing answered. */
const NO_INPUT: RetryInput = Object.freeze({ answers: Object.freeze({}), opened: undefined });

/** A cancelled retry gives its requestState back, so the client may send it again. */
function release(core: InputCore, retry: RetryInput, rc: RequestContext): void {
  if (retry.opened !== undefined && rc.cancelled)
    void Promise.resolve(core.codec!.release(retry.opened)).catch(core.report);
}

/**
 * Run `body` with a context whose client calls are input requests: the complete result, or the
 * InputRequiredResult of a run that asked for input it was not given; synchronous if `body` is.
 * Only once the server's MRTR code is loaded (`core.inputs`).
 */
export function withInput<A, B>(
  core: InputCore,
  method: string,
  params: Params | undefined,
  rc: RequestContext,
  body: (ctx: ModernContext, a: A, b: B) => Result | Promise<Result>,
  a?: A,
  b?: B,
): Result | Promise<Result> {
  const allowed = INPUT_METHODS.has(method);
  const retry = allowed ? retryInput(core.codec!, method, params) : NO_INPUT;
  // A retry's requestState is verified first (asynchronously); a first run starts at once.
  if (retry instanceof Promise)
    return retry.then((r) => runWithInput(core, method, params, rc, allowed, r, body, a, b));
  return runWithInput(core, method, params, rc, allowed, retry, body, a, b);
}

function runWithInput<A, B>(
  core: InputCore,
  method: string,
  params: Params | undefined,
  rc: RequestContext,
  allowed: boolean,
  retry: RetryInput,
  body: (ctx: ModernContext, a: A, b: B) => Result | Promise<Result>,
  a?: A,
  b?: B,
): Result | Promise<Result> {
  // The identity and the input round are made only if the run reads them.
  const ctx = new ModernContext(rc, undefined, undefined, core.inputs, retry.answers, allowed, method);
  let run: Result | Promise<Result>;
  try {
    run = body(ctx, a as A, b as B);
  } catch (e) {
    release(core, retry, rc);
    throw e;
  }
  if (run === null || typeof run !== "object" || typeof run.then !== "function") {
    if (!ctx.isBlocked) return run;
    run = Promise.resolve(run);
  }
  const running = run as Promise<Result>;
  const round = ctx.round;
  return new Promise<Result>((resolve, reject) => {
    let settled = false;
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      release(core, retry, rc);
      reject(e);
    };
    const blocked = (round.onblocked = () => {
      if (settled) return;
      settled = true;
      ctx.abandon();
      try {
        resolve(inputRequired(core.codec!, method, params, round));
      } catch (e) {
        reject(e);
      }
    });
    running.then(
      (result) => {
        if (round.isBlocked) return blocked();
        if (!settled) {
          settled = true;
          resolve(result);
        }
      },
      // An error the run raised itself (e.g. -32021, a bad answer) wins over a pending round.
      (e: unknown) => (e instanceof McpError || !round.isBlocked ? fail(e) : blocked()),
    );
  });
}
