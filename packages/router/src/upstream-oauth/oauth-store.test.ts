import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OAuthStore, oauthFolder } from './oauth-store.js';

describe('OAuthStore', () => {
  it('keeps tokens under the user config folder, the folder 0700 and the file 0600, keyed by server and URL', async () => {
    expect(oauthFolder({ XDG_CONFIG_HOME: '/x/config' })).toBe(join('/x/config', 'promptyard', 'oauth'));
    expect(oauthFolder({ HOME: '/home/ann' })).toBe(join('/home/ann', '.config', 'promptyard', 'oauth'));
    const home = await mkdtemp(join(tmpdir(), 'oauth-store-'));
    try {
      const folder = join(home, 'promptyard', 'oauth');
      const store = new OAuthStore('linear', 'https://mcp.linear.app/mcp', folder);
      expect(store.read()).toEqual({ server: 'linear', url: 'https://mcp.linear.app/mcp' });
      store.update((record) => ({ ...record, tokens: { access_token: 'a', token_type: 'Bearer' }, obtainedAt: 1 }));
      expect(store.read().tokens).toEqual({ access_token: 'a', token_type: 'Bearer' });
      if (process.platform !== 'win32') {
        expect((await stat(folder)).mode & 0o777).toBe(0o700);
        expect((await stat(store.path)).mode & 0o777).toBe(0o600);
      }
      expect(new OAuthStore('linear', 'https://other.example.com/mcp', folder).path).not.toBe(store.path);
      expect(new OAuthStore('linear', 'https://other.example.com/mcp', folder).read().tokens).toBeUndefined();
      store.clear();
      expect(store.stamp()).toBe(0);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
