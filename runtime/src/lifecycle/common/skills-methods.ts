/**
 * The Skills extension's methods, which no revision's core schema has
 * (https://modelcontextprotocol.io/seps/2640-skills-extension): a server that serves skills and a
 * client that asks for them both speak bindings that know them. Their params and results are
 * checked by the code that handles them (server/skills.ts, client/skills.ts).
 */
import type { ProtocolBinding } from "../../protocol-binding.js";
import { deriveBinding } from "../../lazy-binding.js";

export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

const SKILL_REQUEST = { kind: "request", from: "client", capability: null, resultType: "Result" } as const;

/** `binding` with `skills/list`, `skills/get` and `resources/directory/read`. */
export function withSkillMethods(binding: ProtocolBinding): ProtocolBinding {
  return deriveBinding(binding, {
    methods: (methods) => ({
      ...methods,
      "skills/list": { ...SKILL_REQUEST, paramsRequired: false, paramsType: "ListSkillsRequestParams" },
      "skills/get": { ...SKILL_REQUEST, paramsRequired: true, paramsType: "GetSkillRequestParams" },
      "resources/directory/read": {
        ...SKILL_REQUEST,
        paramsRequired: true,
        paramsType: "ReadResourceDirectoryRequestParams",
      },
    }),
  });
}
