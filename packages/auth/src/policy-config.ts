import { PromptyardError } from '@promptyard/core';
import type { ConfigOf, SectionSpec } from '@promptyard/core';

/**
 * `[[policy]]`, an array of tables in both binaries' config: who (claims, by glob) may or may not use
 * what (servers, tools, prompts, resources, skills, by glob). See `createAccessPolicy` for how the
 * rules combine.
 */
export const policySection = {
  name: { type: 'string', doc: 'A label for the rule, named in audit lines (default: "#<position>").' },
  effect: {
    type: 'string',
    enum: ['allow', 'deny'],
    default: 'allow',
    doc: 'allow: callers it applies to may use what it names; deny: they may not, whatever any rule allows.',
  },
  subjects: { type: 'string[]', doc: 'Applies to callers whose sub matches one of these globs.' },
  groups: { type: 'string[]', doc: 'Applies to callers in a group (read from [auth] groups_claim) matching one of these globs.' },
  scopes: { type: 'string[]', doc: 'Applies to callers whose token has a scope matching one of these globs.' },
  clients: { type: 'string[]', doc: 'Applies to callers whose OAuth client (client_id, else azp) matches one of these globs.' },
  servers: { type: 'string[]', doc: 'Gateway only: globs of server ids whose tools, prompts, resources and skills the rule covers.' },
  tools: { type: 'string[]', doc: 'Globs of tool names (as clients see them).' },
  prompts: { type: 'string[]', doc: 'Globs of prompt names (as clients see them).' },
  resources: { type: 'string[]', doc: 'Globs of resource URIs (doc://team/*); templates are matched by their URI template.' },
  skills: { type: 'string[]', doc: "Globs of skill names (the path of a skill's skill:// URI before /SKILL.md)." },
} as const satisfies SectionSpec;

export type PolicySectionValues = ConfigOf<{ 'policy[]': typeof policySection }>['policy[]'][number];

const conditionKeys = ['subjects', 'groups', 'scopes', 'clients'] as const;
const itemKeys = ['servers', 'tools', 'prompts', 'resources', 'skills'] as const;

/** One `[[policy]]` entry, checked; an absent list is no condition (or covers nothing). */
export interface PolicyRule {
  /** How audit lines name it: `[[policy]] #2 "design"`. */
  readonly label: string;
  readonly effect: 'allow' | 'deny';
  readonly when: { readonly [K in (typeof conditionKeys)[number]]?: readonly string[] };
  readonly covers: { readonly [K in (typeof itemKeys)[number]]?: readonly string[] };
}

/**
 * `[[policy]]` checked as a whole: the rules, or every mistake at once. `gateway`: whether `servers`
 * means anything here (promptyard-server has no servers).
 */
export const checkPolicies = (
  entries: readonly PolicySectionValues[],
  options: { readonly gateway: boolean },
): { readonly rules: readonly PolicyRule[]; readonly problems: readonly string[] } => {
  const problems: string[] = [];
  const rules = entries.map((entry, index): PolicyRule => {
    const label = `[[policy]] #${index + 1}${entry.name === undefined ? '' : ` ${JSON.stringify(entry.name)}`}`;
    for (const key of [...conditionKeys, ...itemKeys]) {
      const globs = entry[key];
      if (globs === undefined) continue;
      if (globs.length === 0) problems.push(`${label}: ${key} is an empty list; remove it (no condition) or name at least one glob`);
      if (globs.some((glob) => glob.trim() === '')) problems.push(`${label}: ${key} holds an empty glob; use "*" for any`);
    }
    if (entry.servers !== undefined && !options.gateway)
      problems.push(`${label}: servers applies to promptyard-gateway only; name tools, prompts, resources or skills here`);
    if (itemKeys.every((key) => entry[key] === undefined)) {
      problems.push(
        `${label} names nothing to ${entry.effect}: add ${options.gateway ? 'servers, ' : ''}tools, prompts, resources or skills (globs such as ["*"])`,
      );
    }
    const pick = <K extends string>(keys: readonly K[]): { [P in K]?: readonly string[] } =>
      Object.fromEntries(
        keys.flatMap((key) =>
          entry[key as keyof PolicySectionValues] === undefined ? [] : [[key, entry[key as keyof PolicySectionValues]]],
        ),
      ) as { [P in K]?: readonly string[] };
    return { label, effect: entry.effect, when: pick(conditionKeys), covers: pick(itemKeys) };
  });
  return { rules: problems.length === 0 ? rules : [], problems };
};

/** {@link checkPolicies}, throwing `CONFIG_INVALID` with every problem. */
export const resolvePolicies = (entries: readonly PolicySectionValues[], options: { readonly gateway: boolean }): readonly PolicyRule[] => {
  const { rules, problems } = checkPolicies(entries, options);
  if (problems.length > 0) throw new PromptyardError('CONFIG_INVALID', `Invalid configuration:\n  ${problems.join('\n  ')}`);
  return rules;
};
