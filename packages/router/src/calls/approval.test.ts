import { afterEach, describe, expect, it, vi } from 'vitest';
import { canonicalDigest, silentLogger } from '@promptyard/core';
import type { AccessPolicy, ApprovalRule, Identity } from '@promptyard/core';
import type { ClientPeer, JsonObject } from '@promptyard/mcp';
import { Approvals, argumentsDigest, summarizeArguments } from './approval.js';
import type { ApprovalRequest } from './approval.js';

const alice: Identity = { subject: 'alice', clientId: 'cli', scopes: [], groups: [], claims: {} };
const bob: Identity = { ...alice, subject: 'bob' };

/** A policy whose `deploy*` tools need approval under `rule`; its version can change like a reload's. */
const policyWith = (rule: ApprovalRule): AccessPolicy & { version: string } => ({
  version: 'v1',
  decide: () => ({ allowed: true, explicit: true, reason: 'test' }),
  approval: (_caller, kind, name) => (kind === 'tool' && name.startsWith('deploy') ? rule : undefined),
  admits: () => undefined,
});

/** A client whose person answers each question with the next of `answers` (and records the questions). */
const personAnswering = (...answers: (JsonObject | Promise<JsonObject>)[]) => {
  const asked: JsonObject[] = [];
  const peer: ClientPeer = {
    label: 'test',
    session: {},
    elicitation: (params) => {
      asked.push(params);
      const answer = answers.shift();
      return answer === undefined ? Promise.reject(new Error('asked more often than the test expected')) : Promise.resolve(answer);
    },
  };
  return { peer, asked };
};

const yes = { action: 'accept', content: { approve: true } };
const once: ApprovalRule = { label: '[[policy]] #2 "deploys"', ttlMs: 0 };
const hour: ApprovalRule = { label: '[[policy]] #2 "deploys"', ttlMs: 3_600_000 };

const requestOf = (peer: ClientPeer | undefined, rule: ApprovalRule, overrides: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  rule,
  identity: alice,
  profile: 'ops',
  server: 'k8s',
  tool: 'deploy',
  args: { app: 'web', replicas: 3 },
  peer,
  timeoutMs: 60_000,
  ...overrides,
});

describe('Approvals', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('needs no approval without a policy, and only for the tools a rule names with one', () => {
    expect(new Approvals(undefined, { logger: silentLogger() }).required(alice, 'deploy', 'k8s')).toBeUndefined();
    const approvals = new Approvals(policyWith(once), { logger: silentLogger() });
    expect(approvals.required(alice, 'deploy', 'k8s')).toBe(once);
    expect(approvals.required(undefined, 'list_pods', 'k8s')).toBeUndefined();
  });

  it('asks the person once with a form naming server, tool, rule and arguments, and approves on yes', async () => {
    const { peer, asked } = personAnswering(yes);
    const approvals = new Approvals(policyWith(once), { logger: silentLogger() });
    await expect(approvals.obtain(requestOf(peer, once))).resolves.toEqual({ decision: 'approved', cached: false });
    expect(asked).toHaveLength(1);
    const [question] = asked;
    expect(question).toMatchObject({
      mode: 'form',
      requestedSchema: { type: 'object', properties: { approve: { type: 'boolean', title: 'Approve this call' } }, required: ['approve'] },
    });
    const message = String(question?.['message']);
    for (const part of ['"deploy"', '"k8s"', '[[policy]] #2 "deploys"', 'app: "web"', 'replicas: 3']) expect(message).toContain(part);
  });

  it.each([
    ['declined', { action: 'decline' }],
    ['cancelled', { action: 'cancel' }],
    ['accepted without approving', { action: 'accept', content: { approve: false } }],
    ['accepted with a string', { action: 'accept', content: { approve: 'true' } }],
  ])('refuses a call the person %s', async (_, answer) => {
    const { peer } = personAnswering(answer);
    const approvals = new Approvals(policyWith(once), { logger: silentLogger() });
    const obtaining = approvals.obtain(requestOf(peer, once));
    await expect(obtaining).rejects.toMatchObject({ code: 'APPROVAL_DECLINED' });
    await expect(obtaining).rejects.toThrow(
      'The call of tool "deploy" was not made: it needs approval ([[policy]] #2 "deploys") and was declined by the person asked.',
    );
  });

  it('refuses a call nobody answers in time', async () => {
    vi.useFakeTimers();
    const { peer } = personAnswering(new Promise<JsonObject>(() => {}));
    const approvals = new Approvals(policyWith(once), { logger: silentLogger() });
    const obtaining = approvals.obtain(requestOf(peer, once, { timeoutMs: 30_000 }));
    const outcome = expect(obtaining).rejects.toThrow('was not answered within 30 s');
    await vi.advanceTimersByTimeAsync(30_000);
    await outcome;
  });

  it('refuses a call cancelled while the person is asked', async () => {
    const { peer } = personAnswering(new Promise<JsonObject>(() => {}));
    const approvals = new Approvals(policyWith(once), { logger: silentLogger() });
    const controller = new AbortController();
    const obtaining = approvals.obtain(requestOf(peer, once, { signal: controller.signal }));
    controller.abort();
    await expect(obtaining).rejects.toThrow('was cancelled before the person answered');
  });

  it('refuses a call the client failed to ask, saying why', async () => {
    const failing: ClientPeer = { label: 'test', session: {}, elicitation: () => Promise.reject(new Error('form mode unsupported')) };
    const approvals = new Approvals(policyWith(once), { logger: silentLogger() });
    await expect(approvals.obtain(requestOf(failing, once))).rejects.toThrow('the client failed the question (form mode unsupported)');
  });

  it('tells the operator what to enable when the client cannot be asked', async () => {
    const approvals = new Approvals(policyWith(once), { logger: silentLogger() });
    for (const peer of [undefined, { label: 'stdio', session: {} }]) {
      const obtaining = approvals.obtain(requestOf(peer, once));
      await expect(obtaining).rejects.toMatchObject({ code: 'APPROVAL_DECLINED' });
      await expect(obtaining).rejects.toThrow(
        /cannot be asked: use a client that supports elicitation .*input_required rounds.*remove approve from that \[\[policy\]\] rule/,
      );
    }
  });

  it('asks every time without a ttl', async () => {
    const { peer, asked } = personAnswering(yes, yes);
    const approvals = new Approvals(policyWith(once), { logger: silentLogger() });
    await approvals.obtain(requestOf(peer, once));
    await expect(approvals.obtain(requestOf(peer, once))).resolves.toEqual({ decision: 'approved', cached: false });
    expect(asked).toHaveLength(2);
  });

  it('reuses an approval within its ttl for the same caller, profile, tool and arguments only', async () => {
    let now = 1_000;
    const { peer, asked } = personAnswering(yes, yes, yes, yes, yes);
    const approvals = new Approvals(policyWith(hour), { logger: silentLogger(), now: () => now });
    await approvals.obtain(requestOf(peer, hour));
    // The same arguments in another order are the same arguments.
    await expect(approvals.obtain(requestOf(peer, hour, { args: { replicas: 3, app: 'web' } }))).resolves.toEqual({
      decision: 'approved',
      cached: true,
    });
    expect(asked).toHaveLength(1);
    for (const other of [{ args: { app: 'web', replicas: 4 } }, { identity: bob }, { profile: 'default' }, { identity: undefined }])
      await expect(approvals.obtain(requestOf(peer, hour, other))).resolves.toMatchObject({ cached: false });
    expect(asked).toHaveLength(5);
    now += hour.ttlMs - 1;
    await expect(approvals.obtain(requestOf(peer, hour))).resolves.toMatchObject({ cached: true });
    now += 1;
    await expect(approvals.obtain(requestOf(peer, hour))).rejects.toThrow('asked more often than the test expected');
  });

  it('asks again after the approval expired, or the rules changed', async () => {
    let now = 0;
    const policy = policyWith(hour);
    const { peer, asked } = personAnswering(yes, yes, yes);
    const approvals = new Approvals(policy, { logger: silentLogger(), now: () => now });
    await approvals.obtain(requestOf(peer, hour));
    now = hour.ttlMs;
    await expect(approvals.obtain(requestOf(peer, hour))).resolves.toMatchObject({ cached: false });
    policy.version = 'v2';
    await expect(approvals.obtain(requestOf(peer, hour))).resolves.toMatchObject({ cached: false });
    await expect(approvals.obtain(requestOf(peer, hour))).resolves.toMatchObject({ cached: true });
    expect(asked).toHaveLength(3);
  });

  it('keeps at most maxCached approvals, dropping the oldest', async () => {
    const { peer, asked } = personAnswering(yes, yes, yes, yes);
    const approvals = new Approvals(policyWith(hour), { logger: silentLogger(), maxCached: 2 });
    for (const app of ['a', 'b', 'c']) await approvals.obtain(requestOf(peer, hour, { args: { app } }));
    await expect(approvals.obtain(requestOf(peer, hour, { args: { app: 'c' } }))).resolves.toMatchObject({ cached: true });
    await expect(approvals.obtain(requestOf(peer, hour, { args: { app: 'b' } }))).resolves.toMatchObject({ cached: true });
    await expect(approvals.obtain(requestOf(peer, hour, { args: { app: 'a' } }))).resolves.toMatchObject({ cached: false });
    expect(asked).toHaveLength(4);
  });
});

describe('argumentsDigest', () => {
  it('is the canonical digest of the arguments, {} when there are none', () => {
    expect(argumentsDigest({ b: 1, a: [true] })).toBe(argumentsDigest({ a: [true], b: 1 }));
    expect(argumentsDigest(undefined)).toBe(canonicalDigest({}));
    expect(argumentsDigest({ a: 1 })).not.toBe(argumentsDigest({ a: 2 }));
  });
});

describe('summarizeArguments', () => {
  it('shows each key with short JSON, cuts long values, and counts keys past ten', () => {
    const args = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`k${index}`, index === 0 ? 'x'.repeat(200) : index]));
    const lines = summarizeArguments(args).split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toMatch(/^ {2}k0: "x+…$/);
    expect(lines[0]?.length).toBeLessThan(100);
    expect(lines[1]).toBe('  k1: 1');
    expect(lines[10]).toBe('  and 2 more');
    expect(summarizeArguments(undefined)).toBe('(no arguments)');
  });

  it('lists a call while its person is asked (who, profile, server, tool, rule; never the arguments), and tells when it stops waiting', async () => {
    const approvals = new Approvals(policyWith(once), { logger: silentLogger() });
    let answer: (value: JsonObject) => void = () => {};
    const { peer } = personAnswering(new Promise<JsonObject>((resolve) => (answer = resolve)), { action: 'decline' });
    let heard = 0;
    const stop = approvals.waiting.subscribe(() => (heard += 1));
    const asking = approvals.obtain(requestOf(peer, once));
    expect(approvals.waiting.list()).toEqual([
      { id: 1, identity: 'alice', profile: 'ops', server: 'k8s', tool: 'deploy', rule: '[[policy]] #2 "deploys"', since: expect.any(Date) },
    ]);
    expect(JSON.stringify(approvals.waiting.list())).not.toContain('web');
    // A second call from stdio (no identity) waits beside it, and leaves when refused.
    await expect(approvals.obtain(requestOf(peer, once, { identity: undefined, tool: 'deploy_db' }))).rejects.toThrow(/declined/);
    expect(heard).toBe(3);
    expect(approvals.waiting.list().map((call) => call.tool)).toEqual(['deploy']);
    answer(yes);
    await asking;
    expect(approvals.waiting.list()).toEqual([]);
    expect(heard).toBe(4);
    stop();
  });

  it('stops listing a call whose client is cancelled or cannot be asked', async () => {
    const approvals = new Approvals(policyWith(once), { logger: silentLogger() });
    const controller = new AbortController();
    const { peer } = personAnswering(new Promise<JsonObject>(() => {}));
    const asking = approvals.obtain(requestOf(peer, once, { signal: controller.signal }));
    expect(approvals.waiting.list()).toHaveLength(1);
    controller.abort();
    await expect(asking).rejects.toThrow(/cancelled before the person answered/);
    expect(approvals.waiting.list()).toEqual([]);
    await expect(approvals.obtain(requestOf(undefined, once))).rejects.toThrow(/cannot be asked/);
    expect(approvals.waiting.list()).toEqual([]);
  });
});
