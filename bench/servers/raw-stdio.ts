/**
 * Raw NDJSON stdio server (the baseline child process). Usage: raw-stdio.js <variant> [2026-07-28]
 * (the second argument: answer as a 2026-07-28 server, see createModernRawHandler).
 */
import { parseVariant } from "../workload.js";
import { createModernRawHandler, createRawHandler } from "./raw-handler.js";

const variant = parseVariant(process.argv[2]);
const handle = process.argv[3] === "2026-07-28" ? createModernRawHandler(variant) : createRawHandler(variant);
let buffered = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  buffered += chunk;
  let nl: number;
  while ((nl = buffered.indexOf("\n")) !== -1) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    if (line.length === 0) continue;
    const response = handle(JSON.parse(line));
    if (response) process.stdout.write(JSON.stringify(response) + "\n");
  }
});
process.stdin.on("end", () => process.exit(0));
