/**
 * `ctx.client` of a 2026-07-28 request: each call is an input request of the current run
 * (lifecycle/modern/mrtr.ts), answered from the retry's `inputResponses`; accepted form content is
 * checked against the `requestedSchema` the handler sent (elicit-check.ts).
 */
import { ErrorCode } from "../jsonrpc.js";
import { InvalidResultError, McpError } from "../errors.js";
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitFormParams,
  ElicitResult,
  ElicitSchema,
  ElicitUrlParams,
  Root,
} from "../mcp-types.js";
import type { RequestIdentity } from "../lifecycle/modern/meta.js";
import type { InputRound } from "../lifecycle/modern/mrtr.js";
import { checkElicitContent } from "./elicit-check.js";
import type { ClientRequestOptions, ClientRequests } from "./types.js";

export class InputClient implements ClientRequests {
  constructor(
    private readonly identity: RequestIdentity,
    private readonly current: () => InputRound,
  ) {}
  private get round(): InputRound {
    return this.current();
  }
  get capabilities() {
    return this.identity.capabilities;
  }
  get info() {
    return this.identity.clientInfo;
  }
  createMessage(params: CreateMessageParams, options?: ClientRequestOptions): Promise<CreateMessageResult> {
    return this.round.ask("sampling/createMessage", params as never, options?.key) as Promise<CreateMessageResult>;
  }
  async elicit<const S extends ElicitSchema>(
    params: ElicitFormParams<S>,
    options?: ClientRequestOptions,
  ): Promise<ElicitResult<S>> {
    const result = (await this.round.ask("elicitation/create", params as never, options?.key)) as ElicitResult<S> & {
      content?: unknown;
    };
    if (result.action === "accept") {
      const issues = checkElicitContent(params.requestedSchema, result.content);
      if (issues.length > 0) {
        const error = new InvalidResultError("elicitation/create", issues, result);
        throw new McpError(ErrorCode.InvalidParams, `Invalid params: inputResponses: ${error.message}`, {
          errors: issues,
        });
      }
    }
    return result;
  }
  elicitUrl(params: ElicitUrlParams, options?: ClientRequestOptions) {
    return this.round.ask("elicitation/create", params as never, options?.key) as never;
  }
  async listRoots(options?: ClientRequestOptions): Promise<Root[]> {
    return ((await this.round.ask("roots/list", {}, options?.key)) as { roots: Root[] }).roots;
  }
}
