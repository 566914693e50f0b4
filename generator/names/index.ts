export { splitWords, toTypeName, toMemberName, toBindingName, isIdentifierName, propertyKey } from "./identifiers.js";
export { NameRegistry, describeCollision } from "./registry.js";
export type { NameSource, NameCollision } from "./registry.js";
export { assignManifestNames, TYPE_SUFFIX } from "./manifest-names.js";
export type { EntryNames, ManifestNames } from "./manifest-names.js";
