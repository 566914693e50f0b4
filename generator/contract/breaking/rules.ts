/**
 * The rules of `mcpgen breaking`, one id per kind of break, and the finding every check reports.
 * `typeLevel` rules are ones the TypeScript types can see: they stand only when the checker
 * agrees (old input assignable to new input, new output assignable to old output fails).
 */
export const RULES = {
  ENTRY_REMOVED: { typeLevel: false, doc: "a tool, prompt, resource or resource template was removed" },
  ENTRY_RENAMED: { typeLevel: false, doc: "a tool, prompt, resource or resource template was renamed (same definition, new name)" },
  TOOL_INPUT_PROPERTY_REQUIRED: { typeLevel: true, doc: "a tool's input gained a required property, or an optional one became required" },
  TOOL_INPUT_TYPE_NARROWED: { typeLevel: true, doc: "a tool's input property accepts fewer types" },
  TOOL_INPUT_INTEGER_NARROWED: { typeLevel: false, doc: "a tool's input property went from number to integer (the same TypeScript type)" },
  TOOL_INPUT_ENUM_VALUE_REMOVED: { typeLevel: true, doc: "a tool's input enum lost a value" },
  TOOL_INPUT_ADDITIONAL_PROPERTIES_CLOSED: { typeLevel: false, doc: "a tool's input object now sets additionalProperties: false" },
  TOOL_INPUT_INCOMPATIBLE: { typeLevel: true, doc: "the checker finds the old input type not assignable to the new one" },
  TOOL_OUTPUT_PROPERTY_REMOVED: { typeLevel: true, doc: "a tool's output lost a required property" },
  TOOL_OUTPUT_PROPERTY_OPTIONAL: { typeLevel: true, doc: "a tool's output property became optional" },
  TOOL_OUTPUT_TYPE_WIDENED: { typeLevel: true, doc: "a tool's output property may hold more types or values" },
  TOOL_OUTPUT_REMOVED: { typeLevel: false, doc: "a tool no longer declares an outputSchema" },
  TOOL_OUTPUT_INCOMPATIBLE: { typeLevel: true, doc: "the checker finds the new output type not assignable to the old one" },
  PROMPT_ARGUMENT_REQUIRED: { typeLevel: true, doc: "a prompt gained a required argument, or an optional one became required" },
  TEMPLATE_VARIABLES_CHANGED: { typeLevel: false, doc: "a resource template's variables changed" },
} as const;

export type RuleId = keyof typeof RULES;

export interface Finding {
  rule: RuleId;
  /** `tools/get_forecast`, `prompts/summarise`, `resources/<uri>`, `resourceTemplates/<name>`. */
  entry: string;
  message: string;
  /** JSON pointers into the earlier and the current manifest (null where the thing does not exist). */
  old: string | null;
  new: string | null;
  /** Set when the config ignores this finding. */
  ignored?: string;
}

/** Which check of the checker a finding depends on (typeLevel findings only). */
export interface CheckerKey {
  entry: string;
  direction: "input" | "output" | "args";
}
