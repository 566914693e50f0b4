/** A hostile MCP server on stdio (see hostile.ts), for fuzzing our client: `hostile-server.js <seed> <bigBytes>`. */
import { hostileAnswer } from "./hostile.js";
import { rng } from "./mutate.js";

const r = rng(Number(process.argv[2] ?? 1));
const big = Number(process.argv[3] ?? 1 << 20);
let buf = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (d: string) => {
  buf += d;
  let nl;
  while ((nl = buf.indexOf("\n")) !== -1) {
    const text = buf.slice(0, nl);
    buf = buf.slice(nl + 1);
    let m: any;
    try {
      m = JSON.parse(text);
    } catch {
      continue;
    }
    if (m && typeof m === "object" && typeof m.method === "string" && "id" in m) {
      for (const l of hostileAnswer(r, m, big)) process.stdout.write(l + "\n");
    }
  }
});
process.stdin.on("end", () => process.exit(0));
process.on("SIGUSR2", () => {}); // the harness's stats signal: not ours to answer
