/**
 * SEP-1034: a form-mode elicitation schema may give each property a `default`; a client that
 * declares `elicitation.form.applyDefaults` fills in every default the user left unanswered.
 */

export interface ElicitationSchema {
  type?: string;
  properties?: Record<string, { default?: unknown } & Record<string, unknown>>;
  required?: string[];
}

/** `answers` with every missing property that has a `default` filled in from the schema. */
export function applyDefaults(schema: ElicitationSchema | undefined, answers: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = { ...answers };
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    if (out[name] === undefined && prop !== null && typeof prop === "object" && "default" in prop) out[name] = prop.default;
  }
  return out;
}
