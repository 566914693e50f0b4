export { loadSchema, type LoadedSchema, type LoadOptions } from "./load.js";
export { parseJson, lineColumn, findSyntaxError } from "./json.js";
export {
  bundledRevisions,
  bundledSchemaPath,
  readSchemaManifest,
  sha256,
  verifyBundledFile,
  type SchemaManifest,
} from "./schema-manifest.js";
