import { createRequire } from 'node:module';
import type Picomatch from 'picomatch';
import { canonicalDigest } from '@promptyard/core';
import type { AccessDecision, AccessKind, AccessPolicy, ApprovalRule, Identity } from '@promptyard/core';
import type { PolicyRule } from './policy-config.js';

type Matcher = (value: string) => boolean;

/**
 * One glob syntax for every name and URI: `*` is any run of characters (`/` included, so
 * `doc://team/*` covers `doc://team/a/b`), `?` one character, `[abc]` and `{a,b}` as in a shell.
 */
const compile = (globs: readonly string[] | undefined): Matcher | undefined =>
  globs === undefined ? undefined : loadPicomatch()(globs as string[], { bash: true, dot: true, nobrace: false, noextglob: true });

/** picomatch (CommonJS, POSIX paths), loaded by the first rule: a binary without `[[policy]]` never loads it. */
let picomatch: typeof Picomatch | undefined;
const loadPicomatch = (): typeof Picomatch => (picomatch ??= createRequire(import.meta.url)('picomatch/posix.js') as typeof Picomatch);

const pluralOf: Readonly<Record<AccessKind, 'tools' | 'prompts' | 'resources' | 'skills'>> = {
  tool: 'tools',
  prompt: 'prompts',
  resource: 'resources',
  skill: 'skills',
};

interface CompiledRule {
  readonly label: string;
  readonly deny: boolean;
  /** Conditions on the caller exist: a caller without identity (stdio) is never one it applies to. */
  readonly conditional: boolean;
  readonly approval: ApprovalRule | undefined;
  readonly applies: (caller: Identity) => boolean;
  readonly covers: Readonly<Record<'servers' | 'tools' | 'prompts' | 'resources' | 'skills' | 'profiles', Matcher | undefined>>;
}

const compileRule = (rule: PolicyRule): CompiledRule => {
  const subjects = compile(rule.when.subjects);
  const groups = compile(rule.when.groups);
  const scopes = compile(rule.when.scopes);
  const clients = compile(rule.when.clients);
  return {
    label: rule.label,
    deny: rule.effect === 'deny',
    conditional: [subjects, groups, scopes, clients].some((matcher) => matcher !== undefined),
    approval: rule.approve === undefined ? undefined : { label: rule.label, ttlMs: rule.approve.ttlMs },
    // Every condition given must hold; a list holds when one of its globs matches.
    applies: (caller) =>
      (subjects === undefined || subjects(caller.subject)) &&
      (groups === undefined || caller.groups.some(groups)) &&
      (scopes === undefined || caller.scopes.some(scopes)) &&
      (clients === undefined || (caller.clientId !== undefined && clients(caller.clientId))),
    covers: {
      servers: compile(rule.covers.servers),
      tools: compile(rule.covers.tools),
      prompts: compile(rule.covers.prompts),
      resources: compile(rule.covers.resources),
      skills: compile(rule.covers.skills),
      profiles: compile(rule.covers.profiles),
    },
  };
};

/**
 * The `[[policy]]` rules as one decision per caller and item, in the order an administrator reads
 * them: a deny rule that applies to the caller and covers the item refuses it, whatever allows it
 * (deny beats allow, in any order); else an allow rule that applies and covers it allows it; else it
 * is refused — once rules exist, what none allows is not served. A rule covers an item by the item's
 * own name (`tools`, `prompts`, `skills`; `resources` by URI) or, in the gateway, by its server.
 * `undefined` without rules: every caller may use everything, at no cost per request.
 */
export const createAccessPolicy = (rules: readonly PolicyRule[]): AccessPolicy | undefined => {
  if (rules.length === 0) return undefined;
  const compiled = rules.map(compileRule);
  const denies = compiled.filter((rule) => rule.deny);
  const allows = compiled.filter((rule) => !rule.deny);
  const approvals = compiled.filter((rule) => rule.approval !== undefined);
  const profileRules = compiled.some((rule) => rule.covers.profiles !== undefined);
  const covered = (rule: CompiledRule, kind: AccessKind, name: string, server: string | undefined): boolean =>
    rule.covers[pluralOf[kind]]?.(name) === true || (server !== undefined && rule.covers.servers?.(server) === true);
  const noRule: AccessDecision = { allowed: false, explicit: false, reason: 'no [[policy]] rule allows it' };
  return {
    decide: (caller, kind, name, server) => {
      for (const rule of denies)
        if (covered(rule, kind, name, server) && rule.applies(caller))
          return { allowed: false, explicit: true, reason: `denied by ${rule.label}` };
      for (const rule of allows)
        if (covered(rule, kind, name, server) && rule.applies(caller))
          return { allowed: true, explicit: true, reason: `allowed by ${rule.label}` };
      return noRule;
    },
    approval: (caller, kind, name, server) => {
      for (const rule of approvals)
        if (covered(rule, kind, name, server) && (caller === undefined ? !rule.conditional : rule.applies(caller))) return rule.approval;
      return undefined;
    },
    version: canonicalDigest(rules).slice(0, 16),
    admits: (caller, profile) => {
      if (!profileRules) return undefined;
      for (const rule of denies)
        if (rule.covers.profiles?.(profile) === true && rule.applies(caller))
          return { allowed: false, explicit: true, reason: `denied by ${rule.label}` };
      for (const rule of allows)
        if (rule.covers.profiles?.(profile) === true && rule.applies(caller))
          return { allowed: true, explicit: true, reason: `allowed by ${rule.label}` };
      return { allowed: false, explicit: false, reason: 'no [[policy]] rule allows this profile' };
    },
  };
};
