import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLocalUrl, normalizeRepositoryUrl, redactUrl, sourceId } from './urls.js';

describe('redactUrl', () => {
  it('removes credentials and keeps the rest', () => {
    expect(redactUrl('https://ada:s3cret@git.example.com/team/prompts.git')).toBe('https://git.example.com/team/prompts.git');
    expect(redactUrl('https://ghp_token@github.com/team/prompts')).toBe('https://github.com/team/prompts');
    expect(redactUrl('ssh://git@github.com/team/prompts.git')).toBe('ssh://git@github.com/team/prompts.git');
    expect(redactUrl('ssh://git:pw@github.com/team/prompts.git')).toBe('ssh://github.com/team/prompts.git');
    expect(redactUrl('git@github.com:team/prompts.git')).toBe('git@github.com:team/prompts.git');
    expect(redactUrl('/srv/git/prompts.git')).toBe('/srv/git/prompts.git');
  });
});

describe('normalizeRepositoryUrl', () => {
  it('gives one form for the ways a push payload and a config name a repository', () => {
    const forms = [
      'https://github.com/Team/prompts.git',
      'https://x-access-token:abc@GitHub.com/Team/prompts/',
      'http://github.com/Team/prompts',
      'git@github.com:Team/prompts.git',
      'ssh://git@github.com/Team/prompts.git',
      'ssh://git@github.com:22/Team/prompts',
      'git://github.com/Team/prompts.git',
    ];
    for (const form of forms) expect(normalizeRepositoryUrl(form), form).toBe('github.com/Team/prompts');
    expect(normalizeRepositoryUrl('https://gitlab.example.com/group/sub/repo.git')).toBe('gitlab.example.com/group/sub/repo');
  });

  it('makes local paths absolute', () => {
    expect(normalizeRepositoryUrl('/srv/git/prompts.git/')).toBe('/srv/git/prompts.git');
    expect(normalizeRepositoryUrl('file:///srv/git/prompts.git')).toBe('/srv/git/prompts.git');
    expect(normalizeRepositoryUrl('relative/repo')).toBe(path.resolve('relative/repo'));
  });

  it('tells local folders from remotes', () => {
    expect(isLocalUrl('/srv/git/x')).toBe(true);
    expect(isLocalUrl('file:///srv/git/x')).toBe(true);
    expect(isLocalUrl('git@host:x.git')).toBe(false);
    expect(isLocalUrl('https://host/x.git')).toBe(false);
  });
});

describe('sourceId', () => {
  it('is stable for a kind, repository and path, whatever the credentials or the form of the url', () => {
    const id = sourceId({ kind: 'prompts', url: 'https://github.com/team/prompts.git', path: 'prompts' });
    expect(id).toMatch(/^prompts-[0-9a-f]{12}$/);
    expect(sourceId({ kind: 'prompts', url: 'https://user:pw@github.com/team/prompts', path: 'prompts' })).toBe(id);
    expect(sourceId({ kind: 'prompts', url: 'git@github.com:team/prompts.git', path: 'prompts' })).toBe(id);
    expect(sourceId({ kind: 'skills', url: 'https://github.com/team/prompts.git', path: 'prompts' })).not.toBe(id);
    expect(sourceId({ kind: 'prompts', url: 'https://github.com/team/prompts.git', path: '' })).not.toBe(id);
  });
});
