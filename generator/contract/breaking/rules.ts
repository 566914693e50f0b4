/**
 * The rules of `mcpgen breaking`, one id per kind of change, and the finding every check reports.
 * `typeLevel` rules are ones the TypeScript types can see: they stand only when the checker
 * agrees (old input assignable to new input, new output assignable to old output fails).
 * `warning` rules are changes a caller may feel without a call failing (a new default, a tool that
 * turned destructive): reported, failing only under `--strict`.
 */
const breaking = (typeLevel: boolean, doc: string) => ({ severity: "breaking", typeLevel, doc }) as const;
const warning = (doc: string) => ({ severity: "warning", typeLevel: false, doc }) as const;

export const RULES = {
  ENTRY_REMOVED: breaking(false, "a tool, prompt, resource or resource template was removed"),
  ENTRY_RENAMED: breaking(
    false,
    "a tool, prompt, resource or resource template was renamed (same definition, new name)",
  ),
  TOOL_INPUT_PROPERTY_REQUIRED: breaking(
    true,
    "a tool's input gained a required property, or an optional one became required",
  ),
  TOOL_INPUT_PROPERTY_REMOVED: breaking(
    false,
    "a property left an input object that rejects unknown properties (additionalProperties: false): calls sending it now fail",
  ),
  TOOL_INPUT_TYPE_NARROWED: breaking(true, "a tool's input property accepts fewer types"),
  TOOL_INPUT_INTEGER_NARROWED: breaking(
    false,
    "a tool's input property went from number to integer (the same TypeScript type)",
  ),
  TOOL_INPUT_ENUM_VALUE_REMOVED: breaking(true, "a tool's input enum (or const) lost a value"),
  TOOL_INPUT_RANGE_NARROWED: breaking(
    false,
    "a number input accepts a smaller range: minimum/exclusiveMinimum raised or added, maximum/exclusiveMaximum lowered or added, multipleOf added or no longer dividing the old one",
  ),
  TOOL_INPUT_LENGTH_NARROWED: breaking(
    false,
    "a string input accepts fewer lengths: minLength raised or added, maxLength lowered or added",
  ),
  TOOL_INPUT_PATTERN_CHANGED: breaking(
    false,
    "a string input's pattern was added or changed (patterns are compared as written)",
  ),
  TOOL_INPUT_FORMAT_CHANGED: breaking(false, "a string input's format was added or changed"),
  TOOL_INPUT_ITEMS_NARROWED: breaking(
    false,
    "an array input accepts fewer arrays: minItems raised or added, maxItems lowered or added, uniqueItems added",
  ),
  TOOL_INPUT_OBJECT_NARROWED: breaking(
    false,
    "an object input accepts fewer objects: minProperties raised or added, maxProperties lowered or added, propertyNames added",
  ),
  TOOL_INPUT_ADDITIONAL_PROPERTIES_CLOSED: breaking(
    false,
    "a tool's input object now sets additionalProperties: false, or a schema extra properties must match",
  ),
  TOOL_INPUT_INCOMPATIBLE: breaking(true, "the checker finds the old input type not assignable to the new one"),
  TOOL_OUTPUT_PROPERTY_REMOVED: breaking(true, "a tool's output lost a required property"),
  TOOL_OUTPUT_PROPERTY_OPTIONAL: breaking(true, "a tool's output property became optional"),
  TOOL_OUTPUT_TYPE_WIDENED: breaking(true, "a tool's output property may hold more types or values"),
  TOOL_OUTPUT_INTEGER_WIDENED: breaking(
    false,
    "a tool's output property went from integer to number (the same TypeScript type)",
  ),
  TOOL_OUTPUT_RANGE_WIDENED: breaking(
    false,
    "a number output may hold a larger range: minimum/exclusiveMinimum lowered or removed, maximum/exclusiveMaximum raised or removed, multipleOf removed or no longer a multiple of the old one",
  ),
  TOOL_OUTPUT_LENGTH_WIDENED: breaking(
    false,
    "a string output may be shorter or longer: minLength lowered or removed, maxLength raised or removed",
  ),
  TOOL_OUTPUT_PATTERN_CHANGED: breaking(false, "a string output's pattern was removed or changed"),
  TOOL_OUTPUT_FORMAT_CHANGED: breaking(false, "a string output's format was removed or changed"),
  TOOL_OUTPUT_ITEMS_WIDENED: breaking(
    false,
    "an array output may hold more arrays: minItems lowered or removed, maxItems raised or removed, uniqueItems removed",
  ),
  TOOL_OUTPUT_OBJECT_WIDENED: breaking(
    false,
    "an object output may hold more objects: minProperties lowered or removed, maxProperties raised or removed, propertyNames removed",
  ),
  TOOL_OUTPUT_ADDITIONAL_PROPERTIES_OPENED: breaking(
    false,
    "a tool's output object no longer sets additionalProperties: false (or no longer restricts extra properties with a schema)",
  ),
  TOOL_OUTPUT_REMOVED: breaking(false, "a tool no longer declares an outputSchema"),
  TOOL_OUTPUT_INCOMPATIBLE: breaking(true, "the checker finds the new output type not assignable to the old one"),
  PROMPT_ARGUMENT_REQUIRED: breaking(true, "a prompt gained a required argument, or an optional one became required"),
  TEMPLATE_VARIABLES_CHANGED: breaking(false, "a resource template's variables changed"),
  TOOL_DEFAULT_CHANGED: warning(
    "a default in a tool's schemas was changed or removed: a call that omits the value gets another one",
  ),
  DESCRIPTION_CHANGED: warning(
    "the title or description of an entry, a prompt argument, a tool's annotations or a schema changed or was removed (what models read to choose and fill in a call)",
  ),
  TOOL_BECAME_DESTRUCTIVE: warning(
    "a tool's annotations now say it may destroy data (destructiveHint, default true, on a tool that is not read-only)",
  ),
  TOOL_NO_LONGER_READ_ONLY: warning("a tool's annotations no longer say it is read-only (readOnlyHint)"),
  TOOL_NO_LONGER_IDEMPOTENT: warning("a tool's annotations no longer say repeated calls are harmless (idempotentHint)"),
  TOOL_BECAME_OPEN_WORLD: warning(
    "a tool's annotations now say it reaches outside entities (openWorldHint, default true)",
  ),
} as const;

export type RuleId = keyof typeof RULES;

export interface Finding {
  rule: RuleId;
  /** `breaking`, or `warning` (fails only under --strict). */
  severity: "breaking" | "warning";
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
