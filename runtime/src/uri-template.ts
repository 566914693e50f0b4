/**
 * RFC 6570 URI templates both ways: expansion through `url-template` (a small, dependency-free,
 * RFC-tested implementation), matching through uri-match.ts. Clients expand (a resource template
 * read by its variables); servers only match and import uri-match.ts directly.
 */
import { parseTemplate } from "url-template";
import { compileUriMatcher, type UriMatcher } from "./uri-match.js";

export type TemplateValue = string | number | boolean | readonly (string | number | boolean)[];
export type TemplateVariables = { readonly [name: string]: TemplateValue | undefined };

export interface UriTemplate extends UriMatcher {
  expand(variables: TemplateVariables): string;
}

/** Compile once per template; both directions are then allocation-light. */
export function compileUriTemplate(template: string): UriTemplate {
  const matcher = compileUriMatcher(template);
  const expander = parseTemplate(template);
  return {
    template: matcher.template,
    variables: matcher.variables,
    match: matcher.match,
    expand(values: TemplateVariables): string {
      const defined: Record<string, string | number | boolean | (string | number | boolean)[]> = {};
      for (const key of Object.keys(values)) {
        const v = values[key];
        if (v !== undefined) defined[key] = Array.isArray(v) ? [...v] : (v as string | number | boolean);
      }
      return expander.expand(defined);
    },
  };
}
