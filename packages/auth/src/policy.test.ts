import { resolveConfig } from '@promptyard/core';
import type { Identity } from '@promptyard/core';
import { describe, expect, it } from 'vitest';
import { checkPolicies, policySection, resolvePolicies } from './policy-config.js';
import { createAccessPolicy } from './policy.js';

const policyOf = (entries: readonly Record<string, unknown>[], gateway = false) => {
  const values = resolveConfig({ 'policy[]': policySection }, { policy: entries }, { env: {} })['policy[]'];
  return createAccessPolicy(resolvePolicies(values, { gateway }));
};

const caller = (overrides: Partial<Identity> = {}): Identity => ({
  subject: 'alice',
  clientId: 'vscode',
  scopes: ['mcp'],
  groups: [],
  claims: {},
  ...overrides,
});
const design = caller({ subject: 'dora', groups: ['design'] });
const platform = caller({ subject: 'pete', groups: ['platform', 'oncall'] });

describe('[[policy]]', () => {
  it('is no policy at all without rules: everything allowed at no cost', () => {
    expect(policyOf([])).toBeUndefined();
  });

  it('allows what an applying rule allows, and nothing else', () => {
    const policy = policyOf([
      { name: 'design', groups: ['design'], prompts: ['design:*'], tools: ['search_*'] },
      { name: 'platform', groups: ['platform'], tools: ['deploy_*', 'search_*'] },
    ]);
    expect(policy?.decide(design, 'prompt', 'design:review')).toEqual({
      allowed: true,
      explicit: true,
      reason: 'allowed by [[policy]] #1 "design"',
    });
    expect(policy?.decide(design, 'tool', 'deploy_prod')).toEqual({
      allowed: false,
      explicit: false,
      reason: 'no [[policy]] rule allows it',
    });
    expect(policy?.decide(platform, 'tool', 'deploy_prod')).toEqual({
      allowed: true,
      explicit: true,
      reason: 'allowed by [[policy]] #2 "platform"',
    });
    expect(policy?.decide(platform, 'prompt', 'design:review').allowed).toBe(false);
    // In no group: no rule applies.
    expect(policy?.decide(caller(), 'tool', 'search_web').allowed).toBe(false);
  });

  it('lets a deny rule win over any allow, wherever it stands', () => {
    const policy = policyOf([
      { name: 'everyone', tools: ['*'], prompts: ['*'] },
      { name: 'no prod for contractors', effect: 'deny', groups: ['contractors'], tools: ['*_prod', 'deploy_*'] },
    ]);
    const contractor = caller({ groups: ['design', 'contractors'] });
    expect(policy?.decide(contractor, 'tool', 'deploy_staging')).toEqual({
      allowed: false,
      explicit: true,
      reason: 'denied by [[policy]] #2 "no prod for contractors"',
    });
    expect(policy?.decide(contractor, 'tool', 'search_web').allowed).toBe(true);
    expect(policy?.decide(design, 'tool', 'deploy_staging').allowed).toBe(true);
  });

  it('needs every condition of a rule, and one glob of each', () => {
    const policy = policyOf([{ subjects: ['service-*'], clients: ['ci-?'], scopes: ['mcp:deploy', 'mcp:admin'], tools: ['deploy_*'] }]);
    const machine = caller({ subject: 'service-build', clientId: 'ci-1', scopes: ['mcp', 'mcp:deploy'] });
    expect(policy?.decide(machine, 'tool', 'deploy_prod').allowed).toBe(true);
    expect(policy?.decide({ ...machine, clientId: 'ci-12' }, 'tool', 'deploy_prod').allowed).toBe(false);
    expect(policy?.decide({ ...machine, clientId: undefined }, 'tool', 'deploy_prod').allowed).toBe(false);
    expect(policy?.decide({ ...machine, scopes: ['mcp'] }, 'tool', 'deploy_prod').allowed).toBe(false);
    expect(policy?.decide({ ...machine, subject: 'alice' }, 'tool', 'deploy_prod').allowed).toBe(false);
  });

  it('matches names and URIs with one glob syntax: * crosses "/" and ":", braces and classes work', () => {
    const policy = policyOf([{ resources: ['doc://team/*', 'url:*'], prompts: ['{claude,copilot}:*'], skills: ['review', 'acme/[ab]*'] }]);
    const someone = caller();
    expect(policy?.decide(someone, 'resource', 'doc://team/a/b.md').allowed).toBe(true);
    expect(policy?.decide(someone, 'resource', 'url:https://example.com/a?b=1').allowed).toBe(true);
    expect(policy?.decide(someone, 'resource', 'doc://other/a').allowed).toBe(false);
    expect(policy?.decide(someone, 'prompt', 'copilot:fix').allowed).toBe(true);
    expect(policy?.decide(someone, 'prompt', 'gemini:fix').allowed).toBe(false);
    expect(policy?.decide(someone, 'prompt', '.hidden').allowed).toBe(false);
    expect(policy?.decide(someone, 'skill', 'acme/build').allowed).toBe(true);
    expect(policy?.decide(someone, 'skill', 'acme/ci').allowed).toBe(false);
  });

  it('covers a gateway item by its server as well as by its name', () => {
    const policy = policyOf(
      [
        { name: 'design', groups: ['design'], servers: ['figma'] },
        { name: 'no writes', effect: 'deny', tools: ['*_delete_*'] },
        { name: 'platform', groups: ['platform'], servers: ['*'] },
        { name: 'not prod', effect: 'deny', groups: ['oncall'], servers: ['prod'] },
      ],
      true,
    );
    expect(policy?.decide(design, 'tool', 'figma_get_file', 'figma').allowed).toBe(true);
    expect(policy?.decide(design, 'prompt', 'figma_review', 'figma').allowed).toBe(true);
    expect(policy?.decide(design, 'tool', 'figma_delete_file', 'figma').reason).toBe('denied by [[policy]] #2 "no writes"');
    expect(policy?.decide(design, 'tool', 'github_get_issue', 'github').allowed).toBe(false);
    expect(policy?.decide(platform, 'tool', 'github_get_issue', 'github').allowed).toBe(true);
    expect(policy?.decide(platform, 'resource', 'prod://logs', 'prod').reason).toBe('denied by [[policy]] #4 "not prod"');
  });
});

describe('[[policy]] mistakes', () => {
  const problemsOf = (entries: readonly Record<string, unknown>[], gateway = false) =>
    checkPolicies(resolveConfig({ 'policy[]': policySection }, { policy: entries }, { env: {} })['policy[]'], { gateway }).problems;

  it('names each one, with what to write instead', () => {
    expect(problemsOf([{ groups: ['design'] }])).toEqual([
      '[[policy]] #1 names nothing to allow: add tools, prompts, resources or skills (globs such as ["*"])',
    ]);
    expect(problemsOf([{ name: 'x', effect: 'deny', groups: [], tools: [''] }])).toEqual([
      '[[policy]] #1 "x": groups is an empty list; remove it (no condition) or name at least one glob',
      '[[policy]] #1 "x": tools holds an empty glob; use "*" for any',
    ]);
    expect(problemsOf([{ servers: ['github'] }])).toEqual([
      '[[policy]] #1: servers applies to promptyard-gateway only; name tools, prompts, resources or skills here',
    ]);
    expect(problemsOf([{ servers: ['github'] }], true)).toEqual([]);
  });

  it('refuses an unknown key or effect through the config schema', () => {
    expect(() => resolveConfig({ 'policy[]': policySection }, { policy: [{ group: ['x'], tools: ['*'] }] }, { env: {} })).toThrow(
      /unknown key "group" in \[\[policy\]\]/,
    );
    expect(() => resolveConfig({ 'policy[]': policySection }, { policy: [{ effect: 'block', tools: ['*'] }] }, { env: {} })).toThrow(
      /effect must be one of/,
    );
  });
});

describe('[[policy]] approve', () => {
  it('asks for approval of the tools an approve rule covers, for callers it applies to (stdio: rules without conditions)', () => {
    const policy = policyOf(
      [
        { name: 'everyone', servers: ['*'] },
        { name: 'deploys', tools: ['deploy_*'], approve: true, approve_ttl: 60 },
        { name: 'oncall deletes', groups: ['oncall'], tools: ['*_delete'], approve: true },
      ],
      true,
    );
    expect(policy?.approval(design, 'tool', 'deploy_prod')).toEqual({ label: '[[policy]] #2 "deploys"', ttlMs: 60_000 });
    expect(policy?.approval(undefined, 'tool', 'deploy_prod')?.label).toBe('[[policy]] #2 "deploys"');
    expect(policy?.approval(platform, 'tool', 'repo_delete')).toEqual({ label: '[[policy]] #3 "oncall deletes"', ttlMs: 0 });
    expect(policy?.approval(undefined, 'tool', 'repo_delete')).toBeUndefined();
    expect(policy?.approval(design, 'tool', 'search_web')).toBeUndefined();
    // An approve rule allows what it covers, once approved.
    expect(policy?.decide(platform, 'tool', 'repo_delete').allowed).toBe(true);
  });

  it('changes its version with the rules', () => {
    const one = policyOf([{ tools: ['*'] }], true);
    const two = policyOf([{ tools: ['*'], approve: true }], true);
    expect(one?.version).toMatch(/^[0-9a-f]{16}$/);
    expect(one?.version).not.toBe(two?.version);
  });

  it('refuses approve on a deny rule, in promptyard-server, and approve_ttl without approve', () => {
    const values = resolveConfig(
      { 'policy[]': policySection },
      {
        policy: [
          { effect: 'deny', tools: ['x'], approve: true },
          { tools: ['y'], approve_ttl: 5 },
        ],
      },
      { env: {} },
    )['policy[]'];
    expect(checkPolicies(values, { gateway: true }).problems).toEqual([
      '[[policy]] #1: approve asks a person to allow a call, so it belongs on an allow rule, not a deny rule',
      '[[policy]] #2: approve_ttl is set but approve is not; add approve = true or remove approve_ttl',
    ]);
    expect(checkPolicies(values, { gateway: false }).problems[0]).toMatch(/approve applies to promptyard-gateway only/);
  });
});

describe('[[policy]] profiles', () => {
  it('admits callers to the profiles a rule allows them, once a rule names profiles', () => {
    expect(policyOf([{ servers: ['*'] }], true)?.admits(design, 'coding')).toBeUndefined();
    const policy = policyOf(
      [
        { name: 'everyone', servers: ['*'], profiles: ['default'] },
        { name: 'designers', groups: ['design'], profiles: ['{design,review}'] },
        { name: 'no contractors', effect: 'deny', groups: ['contractors'], profiles: ['*'] },
      ],
      true,
    );
    expect(policy?.admits(design, 'design')).toEqual({ allowed: true, explicit: true, reason: 'allowed by [[policy]] #2 "designers"' });
    expect(policy?.admits(platform, 'design')?.allowed).toBe(false);
    expect(policy?.admits(platform, 'default')?.allowed).toBe(true);
    expect(policy?.admits(caller({ groups: ['design', 'contractors'] }), 'design')?.reason).toBe(
      'denied by [[policy]] #3 "no contractors"',
    );
  });
});
