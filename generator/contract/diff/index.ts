/** `mcpgen diff` as an API: the CLI prints `text` or `json`. */
import { diffProtocols, loadProtocol, methodFacts, type ProtocolDiff } from "./protocol.js";
import { loadManifestModel, manifestImpact, type Impact } from "./impact.js";
import { renderDiff } from "./report.js";

export type { ProtocolDiff, Impact };
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
  text: string;
  /** Stable JSON (fixed key order, sorted lists), newline-terminated. */
  json: string;
}

export function runDiff(options: DiffOptions): DiffResult {
  const a = loadProtocol(options.from, options.warn);
  const b = loadProtocol(options.to, options.warn);
  const diff = diffProtocols(a, b);
  const impact = options.manifest === undefined ? undefined : manifestImpact(diff, loadManifestModel(options.manifest), methodFacts(b));
  const json = JSON.stringify(impact === undefined ? diff : { ...diff, impact }, null, 2) + "\n";
  return { diff, ...(impact === undefined ? {} : { impact }), text: renderDiff(diff, impact), json };
}
