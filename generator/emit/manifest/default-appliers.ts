/**
 * `tools.defaults.ts`: per tool whose inputSchema has defaults a server fills in
 * (model/input-defaults.ts), the function from valid arguments to what its handler gets.
 * Plain JavaScript like the ajv modules (validators.ts re-exports each function, typed).
 */
import { isPlainObject } from "../../json-schema/walk.js";
import type { DefaultsNode, InputDefaults } from "../../model/input-defaults.js";

export const DEFAULTS_MODULE = "tools.defaults.ts";

/** A JSON value as a JavaScript expression that makes a fresh copy each time it is evaluated. */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(",")}]`;
  if (isPlainObject(value)) {
    // a literal `"__proto__":` would set the prototype instead of defining a property
    return `{${Object.keys(value)
      .map((k) => `${k === "__proto__" ? '["__proto__"]' : JSON.stringify(k)}:${literal(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * Helpers of the module. `copy`: an object's own enumerable properties in a new object, a
 * "__proto__" key defined (an assignment would set the prototype). Not a spread: V8 makes adding
 * a property to an object copied by spread about ten times slower than the copy itself.
 * `items`: an array with `f` applied to every element, copied only if an element changed.
 */
const HELPERS = [
  "const own = Object.prototype.hasOwnProperty;",
  "function define(o,k,x){Object.defineProperty(o,k,{value:x,writable:true,enumerable:true,configurable:true});}",
  'function copy(v){const o={};for(const k of Object.keys(v)){if(k==="__proto__")define(o,k,v[k]);else o[k]=v[k];}return o;}',
  "function items(a,f){let out=a;for(let i=0;i<a.length;i++){const x=f(a[i]);if(x!==a[i]){if(out===a)out=a.slice();out[i]=x;}}return out;}",
];

/**
 * The appliers of several tools as one plain JavaScript module body (the caller adds the banner
 * and the typed exports): per tool, a function from valid arguments to what its handler gets.
 * Copy on write: an object or array is copied only when a default is filled in at or below it,
 * so arguments that have every defaulted property are handed on as they are; the arguments are
 * never written.
 */
export function appliersModule(
  tools: readonly { exportName: string; defaults: InputDefaults; type: string }[],
): string {
  const out: string[] = [...HELPERS];
  let fresh = 0;
  for (const tool of tools) {
    const { nodes } = tool.defaults;
    const names = new Map<string, string>();
    const pending: string[] = [];
    const fn = (pointer: string) => {
      let name = names.get(pointer);
      if (name === undefined) {
        name = `d${fresh++}`;
        names.set(pointer, name);
        pending.push(pointer);
      }
      return name;
    };
    fn("");
    const bodies: string[] = [];
    for (let pointer = pending.shift(); pointer !== undefined; pointer = pending.shift()) {
      // Everything that applies to this value: the node and the nodes of its allOf members and $ref targets.
      const group: DefaultsNode[] = [];
      const seen = new Set<string>();
      const gather = (p: string) => {
        const n = nodes.get(p);
        if (n === undefined || seen.has(p)) return;
        seen.add(p);
        group.push(n);
        for (const s of n.same) if (tool.defaults.has(s)) gather(s);
      };
      gather(pointer);
      const lines: string[] = [];
      const each = group.flatMap((n) => (n.items !== null && tool.defaults.has(n.items) ? [n.items] : []));
      if (each.length > 0)
        lines.push(`if(Array.isArray(v))return ${each.reduce((a, i) => `items(${a},${fn(i)})`, "v")};`);
      const fills = group.flatMap((n) => n.fills);
      const props = group.flatMap((n) => n.props.filter((p) => tool.defaults.has(p.child)));
      if (fills.length > 0 || props.length > 0) {
        // `o` is `v` until something changes, then v's copy
        lines.push('if(v===null||typeof v!=="object"||Array.isArray(v))return v;', "let o=v;");
        const filled = new Set<string>();
        for (const f of fills) {
          if (filled.has(f.key)) continue; // the first default of a key wins, as it would in order
          filled.add(f.key);
          const k = JSON.stringify(f.key);
          const put = f.key === "__proto__" ? `define(o,${k},${literal(f.value)})` : `o[${k}]=${literal(f.value)}`;
          lines.push(`if(!own.call(o,${k})||o[${k}]===undefined){if(o===v)o=copy(v);${put};}`);
        }
        for (const p of props) {
          const k = JSON.stringify(p.key);
          lines.push(
            `if(own.call(o,${k})){const x=${fn(p.child)}(o[${k}]);if(x!==o[${k}]){if(o===v)o=copy(v);o[${k}]=x;}}`,
          );
        }
        lines.push("return o;");
      } else lines.push("return v;");
      bodies.push(`function ${names.get(pointer)}(v){${lines.join("")}}`);
    }
    out.push(...bodies, `export const ${tool.exportName}: ${tool.type} = ${names.get("")};`);
  }
  return out.join("\n");
}
