/**
 * The fixtures of the `tasks-*` conformance scenarios (2026-07-28 `io.modelcontextprotocol/tasks`),
 * written as ordinary handlers: the runtime decides whether a call becomes a task. A handler that
 * wants its input asked inside the task calls `ctx.runAsTask()` first; one that gathers input
 * synchronously (MRTR) calls it after. In 2025-11-25 the client asks for a task (`params.task`) and
 * `runAsTask()` resolves at once; input a task asks for travels on the client's `tasks/result`.
 * Older revisions run every call to its end on the request.
 */
import { McpError, toolError, type HandlerContext } from "@mcpgen/runtime/facades";
import type { EverythingHandlers } from "./mcp/server.js";

/** Sleep `ms`, or reject as soon as the call is cancelled (a cancelled task stops its work). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onabort);
      resolve();
    }, ms);
    const onabort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onabort, { once: true });
  });
}

const form = <const P extends Record<string, { readonly type: "string" | "boolean" }>>(
  message: string,
  properties: P,
) => ({ message, requestedSchema: { type: "object", properties } }) as const;

export function taskTools(): Pick<
  EverythingHandlers["tools"],
  "greet" | "slowCompute" | "confirmDelete" | "failingJob" | "protocolErrorJob" | "multiInput" | "testToolWithTask"
> {
  return {
    greet: ({ name }) => `Hello, ${name}!`,

    async slowCompute({ seconds, label }, ctx: HandlerContext) {
      // Status and progress reach the client while the call runs as a task (progress: 2025-11-25 only).
      await ctx.setStatusMessage(`computing ${label ?? "result"}`);
      await sleep((seconds * 1000) / 2, ctx.signal);
      await ctx.sendProgress(1, { total: 2, message: "halfway" });
      await sleep((seconds * 1000) / 2, ctx.signal);
      return `Computed ${label ?? "result"} after ${seconds}s`;
    },

    async confirmDelete({ filename }, ctx: HandlerContext) {
      await ctx.runAsTask();
      const r = await ctx.client.elicit(form(`Delete ${filename}?`, { confirm: { type: "boolean" } }));
      return r.action === "accept" && r.content?.confirm === true
        ? `Deleted ${filename}`
        : `Kept ${filename} (${r.action})`;
    },

    async failingJob(_, ctx: HandlerContext) {
      await ctx.runAsTask();
      await sleep(1000, ctx.signal);
      return toolError("The job failed: nothing to process");
    },

    async protocolErrorJob(_, ctx: HandlerContext) {
      await ctx.runAsTask();
      await sleep(100, ctx.signal);
      throw new McpError(-32603, "Internal error: the job's worker crashed", { job: "protocol_error_job" });
    },

    async multiInput(_, ctx: HandlerContext) {
      await ctx.runAsTask();
      const fields = { name: { type: "string" }, confirm: { type: "boolean" } } as const;
      const [a, b] = await Promise.all([
        ctx.client.elicit(form("First answer?", fields)),
        ctx.client.elicit(form("Second answer?", fields)),
      ]);
      return `First: ${a.action} ${String(a.content?.name ?? "")}; second: ${b.action} ${String(b.content?.name ?? "")}`;
    },

    async testToolWithTask(_, ctx: HandlerContext) {
      const r = await ctx.client.elicit(form("What is your name?", { name: { type: "string" } }), { key: "user_name" });
      const name = r.action === "accept" ? String(r.content?.name ?? "stranger") : "stranger";
      await ctx.runAsTask();
      await sleep(200, ctx.signal);
      return `Hello, ${name}! (from the task)`;
    },
  };
}
