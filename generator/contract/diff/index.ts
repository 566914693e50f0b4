/** `mcpgen diff` as an API: the CLI prints `text` or `json`. */
import { diffProtocols, loadProtocol, methodFacts, type ProtocolDiff } from "./protocol.js";
import { loadManifestModel, manifestImpact, type Impact } from "./impact.js";
import { renderDiff, renderVerdict } from "./report.js";
import { verdictFor, type Verdict } from "./verdict.js";

export type { ProtocolDiff, Impact, Verdict };
export type { VerdictItem } from "./verdict.js";
export { diffProtocols, loadProtocol, methodFacts } from "./protocol.js";

export interface DiffOptions {
  /** Bundled revision ids or paths to schema.json files. */
  from: string;
  to: string;
  manifest?: string;
  warn?: (message: string) => void;
}

export interface DiffResult {
  diff: ProtocolDiff;
  impact?: Impact[];
  /** With a manifest: what to change to serve `to`, and what the runtime handles. */
  verdict?: Verdict;
  /** The protocol changes; with a manifest, the verdict instead. */
  text: string;
  /** Stable JSON (fixed key order, sorted lists), newline-terminated. */
  json: string;
}

export function runDiff(options: DiffOptions): DiffResult {
  const a = loadProtocol(options.from, options.warn);
  const b = loadProtocol(options.to, options.warn);
  const diff = diffProtocols(a, b);
  if (options.manifest === undefined)
    return { diff, text: renderDiff(diff), json: JSON.stringify(diff, null, 2) + "\n" };
  const model = loadManifestModel(options.manifest);
  const impact = manifestImpact(diff, model, methodFacts(b));
  const verdict = verdictFor(diff, impact, model, options.manifest);
  return {
    diff,
    impact,
    verdict,
    text: renderVerdict(verdict),
    json: JSON.stringify({ ...diff, impact, verdict }, null, 2) + "\n",
  };
}
