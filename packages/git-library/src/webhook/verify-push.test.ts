import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { GitSourceConfig, PushEvent } from '../types.js';
import { pushMatches, verifyPush } from './verify-push.js';

const secret = 'it is a secret';
const hmac = (body: Buffer, key = secret): string => createHmac('sha256', key).update(body).digest('hex');
const after = '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c';

/** Trimmed from GitHub's push event (the fields read, and some that are not). */
const github = Buffer.from(
  JSON.stringify({
    ref: 'refs/heads/main',
    before: '6113728f27ae82c7b1a177c8d03f9e96e0adf246',
    after,
    created: false,
    deleted: false,
    repository: {
      id: 186853002,
      full_name: 'team/prompts',
      html_url: 'https://github.com/team/prompts',
      url: 'https://github.com/team/prompts',
      git_url: 'git://github.com/team/prompts.git',
      ssh_url: 'git@github.com:team/prompts.git',
      clone_url: 'https://github.com/team/prompts.git',
      default_branch: 'main',
    },
    pusher: { name: 'octocat', email: 'octocat@example.com' },
    head_commit: { id: after, message: 'Edit review prompt' },
  }),
);

/** Trimmed from Gitea's push event. */
const gitea = Buffer.from(
  JSON.stringify({
    ref: 'refs/heads/develop',
    before: '28e1879d029cb852e4844d9c718537df08844e03',
    after,
    compare_url: 'https://gitea.example.com/team/prompts/compare/28e1879d029c...0d1a26e67d8f',
    commits: [{ id: after, message: 'Edit review prompt\n', url: `https://gitea.example.com/team/prompts/commit/${after}` }],
    repository: {
      id: 140,
      full_name: 'team/prompts',
      html_url: 'https://gitea.example.com/team/prompts',
      ssh_url: 'ssh://git@gitea.example.com:2222/team/prompts.git',
      clone_url: 'https://gitea.example.com/team/prompts.git',
      default_branch: 'main',
    },
    pusher: { login: 'gitea', email: 'gitea@example.com' },
  }),
);

/** Trimmed from GitLab's Push Hook. */
const gitlab = Buffer.from(
  JSON.stringify({
    object_kind: 'push',
    event_name: 'push',
    before: '95790bf891e76fee5e1747ab589903a6a1f80f22',
    after,
    ref: 'refs/heads/main',
    checkout_sha: after,
    project_id: 15,
    project: {
      id: 15,
      name: 'prompts',
      web_url: 'https://gitlab.example.com/team/prompts',
      git_ssh_url: 'git@gitlab.example.com:team/prompts.git',
      git_http_url: 'https://gitlab.example.com/team/prompts.git',
      path_with_namespace: 'team/prompts',
      default_branch: 'main',
    },
    repository: {
      name: 'prompts',
      url: 'git@gitlab.example.com:team/prompts.git',
      homepage: 'https://gitlab.example.com/team/prompts',
      git_http_url: 'https://gitlab.example.com/team/prompts.git',
      git_ssh_url: 'git@gitlab.example.com:team/prompts.git',
    },
    total_commits_count: 1,
  }),
);

const pushOf = (result: ReturnType<typeof verifyPush>): PushEvent | undefined => {
  if (!result.ok) throw new Error(`expected a verified hook, got ${result.status}: ${result.reason}`);
  return result.event;
};

const rejection = (result: ReturnType<typeof verifyPush>): { status: number; reason: string } => {
  if (result.ok) throw new Error('expected the hook to be refused');
  expect(result.reason).not.toContain(secret);
  return { status: result.status, reason: result.reason };
};

describe('verifyPush', () => {
  it('verifies a GitHub push and reads it', () => {
    const headers = { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hmac(github)}` };
    expect(pushOf(verifyPush(headers, github, secret))).toEqual({
      provider: 'github',
      ref: 'refs/heads/main',
      after,
      repositoryUrls: [
        'https://github.com/team/prompts.git',
        'git@github.com:team/prompts.git',
        'git://github.com/team/prompts.git',
        'https://github.com/team/prompts',
      ],
    });
  });

  it('refuses a GitHub hook that is unsigned, signed with another secret or for another body', () => {
    expect(rejection(verifyPush({ 'x-github-event': 'push' }, github, secret)).status).toBe(401);
    const wrong = { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hmac(github, 'another')}` };
    expect(rejection(verifyPush(wrong, github, secret))).toMatchObject({ status: 401, reason: expect.stringMatching(/does not match/) });
    const tampered = Buffer.from(github.toString('utf8').replace('main', 'evil'));
    expect(
      rejection(verifyPush({ 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hmac(github)}` }, tampered, secret)).status,
    ).toBe(401);
    expect(rejection(verifyPush({ 'x-github-event': 'push', 'x-hub-signature-256': hmac(github) }, github, secret)).status).toBe(401);
    expect(rejection(verifyPush({ 'x-github-event': 'push', 'x-hub-signature-256': 'sha256=abc' }, github, secret)).status).toBe(401);
  });

  it('verifies a GitHub ping without a push, and answers 400 to a signed body that is not JSON', () => {
    const ping = Buffer.from(JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 }));
    expect(pushOf(verifyPush({ 'x-github-event': 'ping', 'x-hub-signature-256': `sha256=${hmac(ping)}` }, ping, secret))).toBeUndefined();
    const junk = Buffer.from('payload=%7B%7D');
    expect(rejection(verifyPush({ 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hmac(junk)}` }, junk, secret)).status).toBe(
      400,
    );
  });

  it('verifies a Gitea push by X-Gitea-Signature (Gitea sends GitHub headers too)', () => {
    const headers = {
      'x-gitea-event': 'push',
      'x-gitea-signature': hmac(gitea),
      'x-github-event': 'push',
      'x-hub-signature-256': `sha256=${hmac(gitea)}`,
    };
    expect(pushOf(verifyPush(headers, gitea, secret))).toEqual({
      provider: 'gitea',
      ref: 'refs/heads/develop',
      after,
      repositoryUrls: [
        'https://gitea.example.com/team/prompts.git',
        'ssh://git@gitea.example.com:2222/team/prompts.git',
        'https://gitea.example.com/team/prompts',
      ],
    });
    expect(rejection(verifyPush({ 'x-gitea-event': 'push' }, gitea, secret)).status).toBe(401);
    expect(rejection(verifyPush({ 'x-gitea-event': 'push', 'x-gitea-signature': hmac(gitea, 'another') }, gitea, secret)).status).toBe(401);
    const junk = Buffer.from('[1, 2');
    expect(rejection(verifyPush({ 'x-gitea-event': 'push', 'x-gitea-signature': hmac(junk) }, junk, secret)).status).toBe(400);
    expect(pushOf(verifyPush({ 'x-gitea-event': 'create', 'x-gitea-signature': hmac(gitea) }, gitea, secret))).toBeUndefined();
  });

  it('verifies a GitLab push by its secret token', () => {
    expect(pushOf(verifyPush({ 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': secret }, gitlab, secret))).toEqual({
      provider: 'gitlab',
      ref: 'refs/heads/main',
      after,
      repositoryUrls: [
        'https://gitlab.example.com/team/prompts.git',
        'git@gitlab.example.com:team/prompts.git',
        'https://gitlab.example.com/team/prompts',
      ],
    });
    expect(rejection(verifyPush({ 'x-gitlab-event': 'Push Hook' }, gitlab, secret)).status).toBe(401);
    expect(rejection(verifyPush({ 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'guess' }, gitlab, secret)).status).toBe(401);
    expect(rejection(verifyPush({ 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': secret }, Buffer.from('nope'), secret)).status).toBe(
      400,
    );
    expect(pushOf(verifyPush({ 'x-gitlab-event': 'Issue Hook', 'x-gitlab-token': secret }, gitlab, secret))).toBeUndefined();
  });
});

describe('pushMatches', () => {
  /** Enough normalization for these tests: scp-like ssh to ssh://, no `.git`, lower case. */
  const normalize = (url: string): string =>
    url
      .replace(/^git@([^:]+):/, 'ssh://git@$1/')
      .replace(/\.git$/, '')
      .toLowerCase();
  const push: PushEvent = {
    provider: 'github',
    ref: 'refs/heads/main',
    after,
    repositoryUrls: ['https://github.com/team/prompts.git', 'git@github.com:team/prompts.git'],
  };
  const source: GitSourceConfig = { kind: 'prompts', url: 'git@github.com:team/prompts.git', ref: 'main', path: '', pollMs: 0 };

  it('matches the branch of the same repository', () => {
    expect(pushMatches(push, source, normalize)).toBe(true);
    expect(pushMatches(push, { ...source, url: 'https://github.com/Team/Prompts' }, normalize)).toBe(true);
    expect(pushMatches(push, { ...source, ref: 'develop' }, normalize)).toBe(false);
    expect(pushMatches(push, { ...source, url: 'https://github.com/team/skills.git' }, normalize)).toBe(false);
    expect(pushMatches({ ...push, ref: 'refs/tags/main' }, source, normalize)).toBe(false);
  });

  it('matches any branch of the repository for a HEAD source, no tag', () => {
    expect(pushMatches({ ...push, ref: 'refs/heads/anything' }, { ...source, ref: 'HEAD' }, normalize)).toBe(true);
    expect(pushMatches({ ...push, ref: 'refs/tags/v1' }, { ...source, ref: 'HEAD' }, normalize)).toBe(false);
  });
});
