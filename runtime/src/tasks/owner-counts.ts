/**
 * The per-owner counters behind the task quotas (docs/task-stores.md): how many tasks, or task
 * runs, each owner holds, so that one caller's flood trips its own quota long before the pool
 * every caller shares. `undefined` owns the tasks nobody owns (2026-07-28 calls without
 * authorization): nothing tells their callers apart, so they share one quota.
 */
import { TASK_OWNER_SHARE } from "../limits.js";

export type OwnerKey = string | undefined;

export class OwnerCounts {
  private readonly counts = new Map<OwnerKey, number>();

  get(owner: OwnerKey): number {
    return this.counts.get(owner) ?? 0;
  }

  add(owner: OwnerKey): void {
    this.counts.set(owner, this.get(owner) + 1);
  }

  remove(owner: OwnerKey): void {
    const n = this.get(owner) - 1;
    // An owner holding nothing keeps no entry: sessions come and go by the thousand.
    if (n > 0) this.counts.set(owner, n);
    else this.counts.delete(owner);
  }
}

/** The default quota of one owner in a pool of `total`. */
export function ownerShare(total: number): number {
  return Math.max(1, Math.floor(total * TASK_OWNER_SHARE));
}
