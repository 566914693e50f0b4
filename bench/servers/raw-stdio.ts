/** Raw NDJSON stdio server (the baseline child process). Usage: raw-stdio.js <variant> */
import { parseVariant } from "../workload.js";
import { createRawHandler } from "./raw-handler.js";

const handle = createRawHandler(parseVariant(process.argv[2]));
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
