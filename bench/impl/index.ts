import type { Implementation } from "../harness.js";
import type { ImplName } from "../workload.js";

/**
 * Loads one implementation by name. Each lives in its own module so a scenario process loads
 * only the libraries it measures (module loading and heap shape stay per implementation).
 */
export async function loadImplementation(name: ImplName): Promise<Implementation> {
  switch (name) {
    case "raw":
      return (await import("./raw.js")).raw;
    case "raw26":
      return (await import("./raw.js")).raw26;
    case "rawobj":
      return (await import("./raw.js")).rawObjects;
    case "rawval":
      return (await import("./raw-validated.js")).rawValidated;
    case "sdk1":
      return (await import("./sdk1.js")).sdk1;
    case "sdk2":
      return (await import("./sdk2.js")).sdk2;
    case "mcpgen": {
      // Not a static import: the bench still builds and runs while the runtime is incomplete.
      const mod = (await import(new URL("./mcpgen.js", import.meta.url).href)) as { mcpgen: Implementation };
      return mod.mcpgen;
    }
    case "mcpgen-legacy": {
      const mod = (await import(new URL("./mcpgen.js", import.meta.url).href)) as { mcpgenLegacy: Implementation };
      return mod.mcpgenLegacy;
    }
  }
}
