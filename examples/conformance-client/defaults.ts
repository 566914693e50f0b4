/**
 * SEP-1034: a form-mode elicitation schema may give each property a `default`; a client that
 * declares `elicitation.form.applyDefaults` fills in every default the user left unanswered.
 */

/** What an elicitation form may hold (ElicitResult.content values). */
export type FormValue = string | number | boolean | string[];

/** The part of `requestedSchema` this needs; the generated ElicitRequestFormParams type fits it. */
export interface ElicitationSchema {
  properties?: Readonly<Record<string, object>>;
}

function isFormValue(v: unknown): v is FormValue {
  return (
    typeof v === "string" ||
    typeof v === "number" ||
    typeof v === "boolean" ||
    (Array.isArray(v) && v.every((x) => typeof x === "string"))
  );
}

/** `answers` with every missing property that has a usable `default` filled in from the schema. */
export function applyDefaults(
  schema: ElicitationSchema | undefined,
  answers: Readonly<Record<string, FormValue>> = {},
): Record<string, FormValue> {
  const out: Record<string, FormValue> = { ...answers };
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    if (out[name] !== undefined || prop === null || typeof prop !== "object" || !("default" in prop)) continue;
    const d = (prop as { default?: unknown }).default;
    if (isFormValue(d)) out[name] = d;
  }
  return out;
}
