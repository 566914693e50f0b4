/**
 * `tools.defaults.ts`: per tool whose inputSchema has defaults a server fills in
 * (model/input-defaults.ts), the function from valid arguments to the copy its handler gets.
 * Plain JavaScript like the ajv modules (validators.ts re-exports each function, typed).
 */
import { isPlainObject } from "../load/schema-walk.js";
import type { DefaultsNode, InputDefaults } from "../model/input-defaults.js";

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
 * The appliers of several tools as one plain JavaScript module body (the caller adds the banner
 * and the typed exports): per tool, a function from valid arguments to the copy its handler gets.
 * Only objects and arrays on the way to a default are copied; the arguments are never written.
 */
export function appliersModule(tools: readonly { exportName: string; defaults: InputDefaults; type: string }[]): string {
  const out: string[] = ["const own = Object.prototype.hasOwnProperty;"];
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
      const items = group.flatMap((n) => (n.items !== null && tool.defaults.has(n.items) ? [n.items] : []));
      if (items.length > 0) lines.push(`if(Array.isArray(v))return v${items.map((i) => `.map(${fn(i)})`).join("")};`);
      const fills = group.flatMap((n) => n.fills);
      const props = group.flatMap((n) => n.props.filter((p) => tool.defaults.has(p.child)));
      if (fills.length > 0 || props.length > 0) {
        lines.push("if(v===null||typeof v!==\"object\"||Array.isArray(v))return v;", "const o={...v};");
        const filled = new Set<string>();
        for (const f of fills) {
          if (filled.has(f.key)) continue; // the first default of a key wins, as it would in order
          filled.add(f.key);
          const k = JSON.stringify(f.key);
          // defineProperty: a "__proto__" key stays a property (an assignment would set the prototype)
          const put = f.key === "__proto__" ? `Object.defineProperty(o,${k},{value:${literal(f.value)},writable:true,enumerable:true,configurable:true})` : `o[${k}]=${literal(f.value)}`;
          lines.push(`if(!own.call(o,${k})||o[${k}]===undefined)${put};`);
        }
        for (const p of props) {
          const k = JSON.stringify(p.key);
          lines.push(`if(own.call(o,${k}))o[${k}]=${fn(p.child)}(o[${k}]);`);
        }
        lines.push("return o;");
      } else lines.push("return v;");
      bodies.push(`function ${names.get(pointer)}(v){${lines.join("")}}`);
    }
    out.push(...bodies, `export const ${tool.exportName}: ${tool.type} = ${names.get("")};`);
  }
  return out.join("\n");
}
