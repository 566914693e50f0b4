export { splitWords, toTypeName, toMemberName, toBindingName, isIdentifierName, propertyKey, RESERVED_WORDS } from "./identifiers.js";
export { NameRegistry, describeCollision, describeSource, comparePointers } from "./registry.js";
export type { NameSource, NameCollision } from "./registry.js";
export { assignManifestNames, TYPE_SUFFIX } from "./manifest-names.js";
export type { EntryNames, ManifestNames } from "./manifest-names.js";
