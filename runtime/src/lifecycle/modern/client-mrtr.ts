/**
 * The client half of multi round-trip requests
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr): every input
 * request of an `InputRequiredResult` is answered by the same handler the client registers for the
 * legacy server→client request of that method (sampling, elicitation, roots), so one set of
 * handlers serves both eras. All responses are built before the retry is sent.
 */
import type { RequestId } from "../../jsonrpc.js";
import { CapabilityError, McpError } from "../../errors.js";
import { ErrorCode } from "../../jsonrpc.js";
import type { Params, RequestContext, RequestHandler, Result } from "../../session/types.js";
import type { InputRequired } from "./client-result.js";

/** The server kept asking for input past the client's bound on rounds. */
export class InputRoundsExceededError extends Error {
  override name = "InputRoundsExceededError";
  constructor(
    readonly method: string,
    readonly rounds: number,
  ) {
    super(`${method}: the server still required input after ${rounds} rounds; gave up`);
  }
}

/** A signal never aborted, made on first use: workerd refuses an AbortController at module scope. */
let never: AbortSignal | undefined;
const neverAborted = (): AbortSignal => (never ??= new AbortController().signal);

/** What an input-request handler sees: the request it answers is the key, not a JSON-RPC id. */
class InputContext implements RequestContext {
  readonly meta = undefined;
  readonly transportContext = undefined;
  constructor(
    readonly requestId: RequestId,
    readonly method: string,
    readonly signal: AbortSignal,
  ) {}
  get cancelled(): boolean {
    return this.signal.aborted;
  }
  async sendProgress(): Promise<void> {}
  sendRequest<R extends Result = Result>(method: string): Promise<R> {
    return Promise.reject(
      new CapabilityError(
        method,
        null,
        `Cannot send ${method} while answering an input request: a 2026-07-28 client sends requests only on its own behalf`,
      ),
    );
  }
  sendNotification(method: string): Promise<void> {
    return Promise.reject(new CapabilityError(method, null, `Cannot send ${method} while answering an input request`));
  }
}

/**
 * The `inputResponses` object for one round. A method without a handler is refused like the
 * legacy era refuses an unhandled request, except that the server should never have asked
 * (it must not request a kind the client did not declare).
 */
export async function answerInputRequests(
  input: InputRequired,
  handlers: ReadonlyMap<string, RequestHandler<any, any>>,
  signal: AbortSignal | undefined,
): Promise<Record<string, Result>> {
  const keys = [...input.inputRequests.keys()];
  const all = Promise.all(
    keys.map(async (key) => {
      const r = input.inputRequests.get(key)!;
      const handler = handlers.get(r.method);
      if (handler === undefined) {
        throw new McpError(
          ErrorCode.MethodNotFound,
          `The server asked for ${r.method} (input request ${JSON.stringify(key)}), which this client does not handle`,
        );
      }
      const params: Params = r.params ?? {};
      const result: unknown = await handler(params, new InputContext(key, r.method, signal ?? neverAborted()));
      if (typeof result !== "object" || result === null || Array.isArray(result)) {
        throw new TypeError(
          `The ${r.method} handler returned ${Array.isArray(result) ? "an array" : typeof result}, not an object`,
        );
      }
      return result as Result;
    }),
  );
  const answers = signal === undefined ? await all : await untilAborted(all, signal);
  const out: Record<string, Result> = {};
  keys.forEach((k, i) => (out[k] = answers[i]!));
  return out;
}

/** `work`, unless `signal` aborts first (a handler that ignores the signal must not hold the caller). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  work.catch(() => {});
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
}
