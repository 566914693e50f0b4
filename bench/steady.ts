/**
 * CPU per call of one implementation at steady state, each side apart: a fixed number of calls
 * after a fixed number of warm-up calls, in one process, for A/B runs of two builds (alternate
 * them; on a shared machine CPU µs per call moves far less than calls/s).
 *   steady.js <impl> <variant> <warmCalls> <calls> <inFlight> [stdio|inproc|http]
 * Prints one JSON line: calls, calls/s, client and server CPU µs per call.
 */
import { loadImplementation } from "./impl/index.js";
import { runPhase } from "./measure.js";
import { killAllChildrenOnExit } from "./children.js";
import { IMPLS, parseVariant, type ImplName } from "./workload.js";

killAllChildrenOnExit();
const [implArg, variantArg, warmArg, callsArg, inFlightArg, modeArg = "stdio"] = process.argv.slice(2);
if (!IMPLS.includes(implArg as ImplName)) throw new Error(`unknown implementation ${implArg}`);
const mode = modeArg as "stdio" | "inproc" | "http";
const impl = await loadImplementation(implArg as ImplName);
const open = impl[mode];
if (!open) throw new Error(`${implArg} does not run over ${mode}`);
const h = await open.call(impl, { variant: parseVariant(variantArg) });
try {
  const inFlight = Number(inFlightArg);
  const warm = Number(warmArg);
  // Phases end by count, not time: every build does the same work.
  const noDeadline = 24 * 3600 * 1000;
  for (let n = 0; n < warm;) n += (await runPhase(h, inFlight, noDeadline, warm - n)).calls;
  const r = await runPhase(h, inFlight, noDeadline, Number(callsArg));
  console.log(
    JSON.stringify({
      impl: implArg,
      calls: r.calls,
      callsPerSec: Math.round(r.callsPerSec),
      clientCpuUs: Number(r.clientCpuUsPerCall.toFixed(2)),
      serverCpuUs: r.serverCpuUsPerCall === null ? null : Number(r.serverCpuUsPerCall.toFixed(2)),
    }),
  );
} finally {
  await h.close();
}
process.exit(0);
