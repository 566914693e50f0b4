/**
 * Whether a 2026-07-28 client declared the tasks extension, and the error when it did not: what
 * the extension (tasks/modern.ts) checks a tool call and its own methods against.
 */
import { ErrorCode } from "../jsonrpc.js";
import { McpError } from "../errors.js";
import type { Capabilities } from "../lifecycle/common/types.js";
import { TASKS_EXTENSION, hasExtension } from "../lifecycle/modern/wire.js";

/** Whether these client capabilities declare the tasks extension. */
export function declaresTasks(caps: Capabilities | undefined): boolean {
  return hasExtension(caps, TASKS_EXTENSION);
}

export function missingExtension(what: string): McpError {
  return new McpError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: ${what} needs the ${TASKS_EXTENSION} extension`,
    {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    },
  );
}
