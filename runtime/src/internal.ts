/**
 * `@mcpgen/runtime/internal`: the runtime's machinery below the facades, for this repository's
 * tests, benchmarks and examples and for whoever builds their own facade: sessions of both eras
 * and their lifecycles, lazy protocol bindings, the 2026-07-28 wire helpers (`_meta` keys,
 * request-metadata headers, `requestState`, listens), the task engines of both eras. No
 * compatibility promise: these names change whenever the runtime's rooms do. User code imports
 * `@mcpgen/runtime` (docs/runtime-entries.md).
 */
export type { MethodInfo, MethodTable } from "./abi.js";
export {
  lazyBinding,
  lazyRevision,
  loadBindings,
  loadTables,
  type RevisionHead,
  type RevisionInfo,
} from "./lazy-binding.js";
export { describe as describeValue } from "./describe.js";

export { Session } from "./session/session.js";
export { requestText, sharedMeta, type SharedMeta } from "./session/request-text.js";
export { resultText } from "./framing/result-text.js";
export { sharedResultMeta } from "./framing/result-meta.js";
export {
  RunningBytes,
  SessionBytes,
  type RunningBytesLimits,
  type RunningBytesLimit,
} from "./session/running-bytes.js";
export type {
  RequestContext,
  RequestHandler,
  NotificationHandler,
  SessionPolicy,
  SessionOptions,
} from "./session/types.js";

export { connectClient, ClientSession, type InitializeResult } from "./lifecycle/legacy/client.js";
export { createServerSession, ServerSession } from "./lifecycle/legacy/server.js";
export type { ClientOptions, ServerOptions } from "./lifecycle/legacy/types.js";
export type { RequestHandlers, NotificationHandlers } from "./lifecycle/common/types.js";
export { hasCapability } from "./lifecycle/common/capabilities.js";

export { ModernServerSession, ModernServerCore, type ModernServerOptions } from "./lifecycle/modern/server.js";
export { ModernServerPolicy } from "./lifecycle/modern/policy.js";
export { checkRequestMeta, declaresModern } from "./lifecycle/modern/meta.js";
export { RequestStateCodec, paramsDigest, type RequestStateOptions } from "./lifecycle/modern/request-state.js";
export { ListenHub, honouredFilter, type ListenLimits, type ListenOwner } from "./lifecycle/modern/listen.js";
export {
  connectModernClient,
  ModernClientSession,
  DEFAULT_MAX_INPUT_ROUNDS,
  type ModernClientOptions,
} from "./lifecycle/modern/client-session.js";
export {
  connectAnyEra,
  EraCache,
  defaultEraCache,
  DEFAULT_PROBE_TIMEOUT_MS,
  type AnyEraOptions,
} from "./lifecycle/modern/client-probe.js";
export { ResultCache } from "./lifecycle/modern/client-cache.js";
export {
  MetaKey,
  Header,
  nameField,
  encodeHeaderValue,
  decodeHeaderValue,
  headerParams,
  argumentAt,
  type SubscriptionFilter,
  type HeaderParamsResult,
} from "./lifecycle/modern/wire.js";

export {
  awaitLegacyTask,
  statusChanges,
  RELATED_TASK,
  type TaskInfo,
  type LegacyTaskIo,
  type StatusSource,
} from "./tasks/legacy-client.js";
export { LegacyTaskReceiver, type TaskReceiverOptions } from "./tasks/legacy-receiver.js";
export { TASKS_EXTENSION, declaresTasks, detailed, type TaskSupport, type ModernTasksOptions } from "./tasks/modern.js";
export { ModernTasks } from "./server/modern-tasks.js";
export { awaitTask, pollDelay, type TaskIo, type PollOptions } from "./lifecycle/modern/client-tasks.js";
export {
  parseRecord,
  recordMessage,
  serializeRecord,
  restoreMessages,
  type SessionRecord,
} from "./http-server/session-record.js";
