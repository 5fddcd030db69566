import { globProblem } from '@promptyard/router';
import type { PolicySectionValues } from '@promptyard/auth';
import type { Problem } from './server-entry.js';
import { locateArrayTableKey } from './toml-lines.js';

// The globs of `[[policy]]`, checked as the gateway's other globs are: one that does not parse or
// cannot match is refused with its line, rather than silently covering nothing.

/** What each key's globs match: names hold no spaces; URIs and the callers' claims (group names, subjects) may. */
const KINDS = {
  subjects: 'uri',
  groups: 'uri',
  scopes: 'uri',
  clients: 'uri',
  servers: 'name',
  tools: 'name',
  prompts: 'name',
  resources: 'uri',
  skills: 'name',
  profiles: 'name',
} as const;

export const checkPolicyGlobs = (entries: readonly PolicySectionValues[], text: string, problems: Problem[]): void => {
  entries.forEach((entry, index) => {
    const label = `[[policy]] #${index + 1}${entry.name === undefined ? '' : ` ${JSON.stringify(entry.name)}`}`;
    for (const [key, what] of Object.entries(KINDS)) {
      const globs = entry[key as keyof typeof KINDS];
      for (const glob of globs ?? []) {
        if (glob.trim() === '') continue; // the auth package reports empty globs
        const message = globProblem(glob, what);
        if (message !== undefined)
          problems.push({ line: locateArrayTableKey(text, 'policy', index, key), message: `${label} ${key}: ${message}` });
      }
    }
  });
};
