import { describe, expect, it } from 'vitest';
import { backendFingerprint, compileNameFilter, diffBackends } from './config-backend.js';
import type { BackendConfig } from './config-backend.js';
import { backendConfig } from './test-router-config.js';

describe('compileNameFilter', () => {
  it('allows all by default, then allow globs, minus deny globs', () => {
    const all = compileNameFilter({ allow: [], deny: [] });
    expect(all('anything')).toBe(true);
    const filter = compileNameFilter({ allow: ['create_*', 'get_?'], deny: ['create_secret*'] });
    expect(filter('create_issue')).toBe(true);
    expect(filter('get_x')).toBe(true);
    expect(filter('get_xy')).toBe(false);
    expect(filter('delete_issue')).toBe(false);
    expect(filter('create_secret_key')).toBe(false);
    const denyOnly = compileNameFilter({ allow: [], deny: ['*.internal'] });
    expect(denyOnly('a.internal')).toBe(false);
    expect(denyOnly('a_internal')).toBe(true);
    expect(compileNameFilter({ allow: ['a+b(c)'], deny: [] })('a+b(c)')).toBe(true);
  });
});

describe('backendFingerprint and diffBackends', () => {
  const base = [
    backendConfig('a', { command: 'a' }),
    backendConfig('b', { command: 'b', env: { X: '1', Y: '2' } }),
    backendConfig('c', { url: 'https://c.test' }),
    backendConfig('d', { command: 'd', enabled: false }),
  ];

  it('is stable for equal configs, whatever the key order', () => {
    const b = base[1] as BackendConfig;
    expect(backendFingerprint(b)).toBe(backendFingerprint({ ...b, env: { Y: '2', X: '1' } }));
    expect(backendFingerprint(b)).not.toBe(backendFingerprint({ ...b, env: { X: '1', Y: '3' } }));
    expect(backendFingerprint(b)).toBe(backendFingerprint({ ...b, prefix: 'other', tools: { allow: ['x'], deny: [] } }));
    expect(backendFingerprint(b)).not.toBe(backendFingerprint({ ...b, inheritEnv: false }));
    expect(backendFingerprint(b)).not.toBe(backendFingerprint({ ...b, protocol: '2025-11-25' }));
  });

  it('sorts servers into added, removed, changed and unchanged; disabled ones count as absent', () => {
    const next = [
      backendConfig('a', { command: 'a', prefix: 'renamed' }),
      backendConfig('b', { command: 'b', env: { X: '1', Y: 'changed' } }),
      backendConfig('c', { url: 'https://c.test', enabled: false }),
      backendConfig('d', { command: 'd' }),
      backendConfig('e', { command: 'e' }),
    ];
    const diff = diffBackends(base, next);
    const ids = (list: readonly BackendConfig[]): string[] => list.map((backend) => backend.id);
    expect(ids(diff.added)).toEqual(['d', 'e']);
    expect(ids(diff.removed)).toEqual(['c']);
    expect(ids(diff.changed)).toEqual(['b']);
    expect(ids(diff.unchanged)).toEqual(['a']);
    expect(ids(diff.reconfigured)).toEqual(['a']);
    expect(diff.unchanged[0]?.prefix).toBe('renamed');
    expect(diffBackends(base, base)).toMatchObject({ added: [], removed: [], changed: [], reconfigured: [] });
  });
});

describe('auth = "oauth"', () => {
  it('restarts a server whose OAuth settings change', () => {
    const [plain, oauth] = [
      backendConfig('a', { url: 'https://a.example.com/mcp' }),
      backendConfig('b', { url: 'https://a.example.com/mcp', oauth: { grant: 'authorization_code', scopes: [] } }),
    ];
    expect(backendFingerprint(plain as never)).not.toBe(backendFingerprint({ ...(oauth as object), id: 'a' } as never));
  });
});
