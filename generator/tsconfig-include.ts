/**
 * Whether a tsconfig's `include` / `exclude` patterns take a file, as tsc reads them: relative to
 * the config's folder, `*` and `?` within one path segment, `**` for any number of folders, and
 * an include entry whose last segment has no `.`, `*` or `?` meaning that whole folder. An exclude
 * entry takes the folders it names with everything below them.
 * https://www.typescriptlang.org/tsconfig/#include
 */

/** A predicate over paths relative to the config's folder (with `/`), or undefined for an entry that reaches outside it. */
export function specMatcher(spec: string, kind: "include" | "exclude"): ((rel: string) => boolean) | undefined {
  const segments: string[] = [];
  for (const seg of spec.replace(/^\$\{configDir\}/, ".").split(/[\\/]+/)) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (segments.length === 0 || segments[segments.length - 1] === "**") return undefined;
      segments.pop();
    } else segments.push(seg);
  }
  if (kind === "include" && !/[.*?]/.test(segments[segments.length - 1] ?? "")) segments.push("**", "*");
  let source = "";
  segments.forEach((seg, i) => {
    const last = i === segments.length - 1;
    if (seg === "**") source += last ? ".*" : "(?:[^/]+/)*";
    else
      source +=
        seg
          .replace(/[.+^${}()|[\]\\]/g, "\\$&")
          .replaceAll("*", "[^/]*")
          .replaceAll("?", "[^/]") + (last ? "" : "/");
  });
  const re = new RegExp(`^${source}${kind === "exclude" ? "(?:/.*)?" : ""}$`);
  return (rel) => re.test(rel);
}

/** Whether any of `specs` takes `rel`. */
export function matchesAny(specs: readonly string[], kind: "include" | "exclude", rel: string): boolean {
  return specs.some((spec) => specMatcher(spec, kind)?.(rel) ?? false);
}
