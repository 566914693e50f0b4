/**
 * "Did you mean" for a misspelt key: the closest known name by edit distance (Damerau: a swap of
 * two neighbours counts once) or a name it is the start of, if close enough to be a plausible
 * typo; a case-insensitive match first. Undefined when nothing is close.
 */
export function didYouMean(word: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = word.toLowerCase();
  for (const candidate of known) {
    const other = candidate.toLowerCase();
    if (other === lower) return candidate;
    // a truncated name ("readOnly" for "readOnlyHint") is as plausible as a typo
    const d = lower.length >= 4 && other.startsWith(lower) ? 1 : distance(lower, other);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  // one edit for short names, up to a third of the longer name for long ones
  const allowed = Math.max(1, Math.floor(Math.max(word.length, best?.length ?? 0) / 3));
  return bestDistance <= allowed ? best : undefined;
}

/** Optimal string alignment distance; the inputs are object keys, bounded by the caller's JSON. */
function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Infinity;
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
