import prettier from "prettier";
import { printData } from "./dist/generator/emit/print-data.js";
import { readFileSync } from "node:fs";
const m = JSON.parse(readFileSync(process.argv[2], "utf8"));
const extra = { "1": 2, "ünï": 1, "a-b": "it's", d: "say \"hi\" it's", e: "say \"hi\"", nums: Array.from({length: 40}, (_, i) => i * 1.5 - 3), big: 1e21, nested: [["a", "b"], ["c"]], mixed: [null, true, "x"], empty: [], eo: {}, "__proto__x": 1, ctrl: "a\u0001b\nc\t\\", longArr: Array.from({length: 12}, (_, i) => "item-" + i) };
for (const v of [m, extra]) {
  const src = `export const data = ${printData(v, {}, 0, "export const data = ".length, 1)};\n`;
  const out = await prettier.format(src, { parser: "typescript" });
  if (out === src) console.log("FIXPOINT", src.length); else { const a = src.split("\n"), b = out.split("\n"); let n=0; for (let i = 0; i < Math.max(a.length, b.length) && n < 6; i++) if (a[i] !== b[i]) { console.log(i+1, "ours  :", JSON.stringify(a[i])); console.log(i+1, "pretty:", JSON.stringify(b[i])); n++; } }
}
