import type { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import type { DirectoryResource, Skill } from '@modelcontextprotocol/client/ext/skills';

export type { Skill };

/** A backend's Agent Skills (the skills extension), as the gateway reads them. */
export interface UpstreamSkills {
  /** Every `skills/list` entry, pages walked; entries the SDK finds invalid are left out. */
  list(timeoutMs: number): Promise<Skill[]>;
  /** The children of a skill directory; `undefined` when the server does not serve directory reads. */
  readDirectory(uri: string, timeoutMs: number): Promise<DirectoryResource[] | undefined>;
}

/** The backend's skills, or `undefined` when it does not declare the extension. */
export const upstreamSkills = (client: Client): UpstreamSkills | undefined => {
  const skills = new SkillsClient(client, { skipInvalid: true });
  if (!skills.supported) return undefined;
  return {
    list: async (timeoutMs) => (await skills.list(undefined, { timeout: timeoutMs })).skills,
    readDirectory: async (uri, timeoutMs) =>
      skills.directoryRead ? (await skills.readDirectory(uri, { timeout: timeoutMs })).resources : undefined,
  };
};
