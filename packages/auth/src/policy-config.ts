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
  profiles: {
    type: 'string[]',
    doc: 'Gateway only: globs of profile names (`default` is the plain endpoint) the callers it applies to may use (or, with effect = "deny", may not); once a rule names profiles, a caller uses only the profiles a rule allows it.',
  },
  approve: {
    type: 'boolean',
    default: false,
    doc: 'Gateway only: a call to a tool this rule covers is first put to the calling client for a person to approve (elicitation on 2025-11-25, an input_required round on 2026-07-28), with the server, tool and a summary of the arguments; declined or unanswered calls are refused. A rule without subjects, groups, scopes or clients also applies to stdio clients.',
  },
  approve_ttl: {
    type: 'integer',
    min: 0,
    max: 86_400,
    default: 0,
    doc: 'Seconds an approval holds for the same caller, profile, tool, arguments and rules; 0 = this call only.',
  },
} as const satisfies SectionSpec;

export type PolicySectionValues = ConfigOf<{ 'policy[]': typeof policySection }>['policy[]'][number];

const conditionKeys = ['subjects', 'groups', 'scopes', 'clients'] as const;
const itemKeys = ['servers', 'tools', 'prompts', 'resources', 'skills', 'profiles'] as const;

/** One `[[policy]]` entry, checked; an absent list is no condition (or covers nothing). */
export interface PolicyRule {
  /** How audit lines name it: `[[policy]] #2 "design"`. */
  readonly label: string;
  readonly effect: 'allow' | 'deny';
  readonly when: { readonly [K in (typeof conditionKeys)[number]]?: readonly string[] };
  readonly covers: { readonly [K in (typeof itemKeys)[number]]?: readonly string[] };
  /** `approve = true`: the tools it covers are called only once a person approves; `ttlMs` from `approve_ttl`. */
  readonly approve?: { readonly ttlMs: number } | undefined;
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
    if (entry.profiles !== undefined && !options.gateway)
      problems.push(`${label}: profiles applies to promptyard-gateway only; remove it here`);
    if (entry.approve && !options.gateway) problems.push(`${label}: approve applies to promptyard-gateway only; remove it here`);
    if (entry.approve && entry.effect === 'deny')
      problems.push(`${label}: approve asks a person to allow a call, so it belongs on an allow rule, not a deny rule`);
    if (!entry.approve && entry.approve_ttl > 0)
      problems.push(`${label}: approve_ttl is set but approve is not; add approve = true or remove approve_ttl`);
    if (itemKeys.every((key) => entry[key] === undefined)) {
      problems.push(
        `${label} names nothing to ${entry.effect}: add ${options.gateway ? 'servers, profiles, ' : ''}tools, prompts, resources or skills (globs such as ["*"])`,
      );
    }
    const pick = <K extends string>(keys: readonly K[]): { [P in K]?: readonly string[] } =>
      Object.fromEntries(
        keys.flatMap((key) =>
          entry[key as keyof PolicySectionValues] === undefined ? [] : [[key, entry[key as keyof PolicySectionValues]]],
        ),
      ) as { [P in K]?: readonly string[] };
    return {
      label,
      effect: entry.effect,
      when: pick(conditionKeys),
      covers: pick(itemKeys),
      ...(entry.approve ? { approve: { ttlMs: entry.approve_ttl * 1000 } } : {}),
    };
  });
  return { rules: problems.length === 0 ? rules : [], problems };
};

/** {@link checkPolicies}, throwing `CONFIG_INVALID` with every problem. */
export const resolvePolicies = (entries: readonly PolicySectionValues[], options: { readonly gateway: boolean }): readonly PolicyRule[] => {
  const { rules, problems } = checkPolicies(entries, options);
  if (problems.length > 0) throw new PromptyardError('CONFIG_INVALID', `Invalid configuration:\n  ${problems.join('\n  ')}`);
  return rules;
};
