/**
 * `@mcpgen/runtime/skills/client`: the Skills extension on the client. The generated `client.ts` of
 * a manifest that declares skills imports this (its client speaks the extension's methods and has
 * `client.skills`); other clients and their bundles never carry it.
 */
export {
  SkillsClient,
  SkillVerificationError,
  type Skill,
  type SkillFile,
  type SkillResource,
} from "../client/skills.js";
export { withSkillMethods } from "../lifecycle/common/skills-methods.js";
