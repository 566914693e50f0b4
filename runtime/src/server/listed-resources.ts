/**
 * `resources/list`'s entries in a revision, which both eras' resource handlers answer with
 * (legacy.ts, modern-resources.ts): the manifest's, then the skills' SKILL.md files. A function of
 * its own rather than a method of ServerCore, so a bundle of a server without resources leaves it out.
 */
import type { PublishedLists, ServerSkills } from "./types.js";

export function listedResources(
  core: { lists(revision: string): PublishedLists; readonly skills: ServerSkills | undefined },
  revision: string,
): readonly unknown[] {
  const own = core.lists(revision).resources;
  return core.skills?.listed(own) ?? own;
}
