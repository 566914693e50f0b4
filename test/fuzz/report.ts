/** One fuzz campaign's figures (per transport and side). */
export interface Report {
  transport: "stdio" | "http";
  side: "server" | "client";
  messages: number;
  crashes: number;
  /** Requests that got no answer (or did not settle) in time. */
  hangs: number;
  wrongCodes: number;
  /** Pending/running entries or sessions left after a batch settled. */
  leaks: number;
  /** Batches whose valid-traffic probe failed. */
  probeFailures: number;
  rssIdleMiB: number;
  rssEndMiB: number;
  heapIdleMiB: number;
  heapEndMiB: number;
  seconds: number;
  /** First few failures, for reproduction. */
  samples: string[];
}

export function newReport(transport: Report["transport"], side: Report["side"]): Report {
  return {
    transport,
    side,
    messages: 0,
    crashes: 0,
    hangs: 0,
    wrongCodes: 0,
    leaks: 0,
    probeFailures: 0,
    rssIdleMiB: 0,
    rssEndMiB: 0,
    heapIdleMiB: 0,
    heapEndMiB: 0,
    seconds: 0,
    samples: [],
  };
}

export function sample(r: Report, what: string): void {
  if (r.samples.length < 8) r.samples.push(what.slice(0, 400));
}

export const mib = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;
