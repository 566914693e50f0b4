/**
 * `@mcpgen/runtime/skills/server`: the Skills extension on the server. The generated `server.ts`
 * of a manifest that declares skills imports this with its `skills.ts` (`definition.skills`), and
 * McpServer loads both before its first connection starts; nothing else reaches it, so servers
 * without skills, clients and their bundles never carry it.
 */
export { serveSkills } from "../server/skills.js";
export { SKILLS_EXTENSION } from "../lifecycle/common/skills-methods.js";
export type { ServerSkills, SkillFile, SkillSource } from "../server/types.js";
