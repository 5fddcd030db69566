import { describe, expect, it } from 'vitest';
import { hasAudience, identityOf } from './claims.js';

describe('identityOf', () => {
  it('reads RFC 9068 claims and the spellings beside them', () => {
    expect(identityOf({ sub: 'ada', client_id: 'vscode', scope: 'mcp prompts', groups: ['design'] }, 'groups')).toMatchObject({
      subject: 'ada',
      clientId: 'vscode',
      scopes: ['mcp', 'prompts'],
      groups: ['design'],
    });
    expect(
      identityOf({ sub: 'ada', azp: 'cursor', scp: ['mcp'], realm_access: { roles: ['platform'] } }, 'realm_access.roles'),
    ).toMatchObject({
      clientId: 'cursor',
      scopes: ['mcp'],
      groups: ['platform'],
    });
  });

  it('names a machine account by its client, and nobody without sub or client', () => {
    expect(identityOf({ client_id: 'ci' }, 'groups')?.subject).toBe('ci');
    expect(identityOf({ scope: 'mcp' }, 'groups')).toBeUndefined();
  });

  it('takes a single group string as one name', () => {
    expect(identityOf({ sub: 'a', groups: 'design team' }, 'groups')?.groups).toEqual(['design team']);
  });
});

describe('hasAudience', () => {
  it('matches a string or a list, ignoring a trailing slash', () => {
    expect(hasAudience('https://mcp.example.com/mcp/', 'https://mcp.example.com/mcp')).toBe(true);
    expect(hasAudience(['a', 'https://mcp.example.com/mcp'], 'https://mcp.example.com/mcp')).toBe(true);
    expect(hasAudience(undefined, 'https://mcp.example.com/mcp')).toBe(false);
    expect(hasAudience('https://other.example.com/mcp', 'https://mcp.example.com/mcp')).toBe(false);
  });
});
