import { chmod, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import path from 'node:path';
import { silentLogger } from '@promptyard/core';
import { afterEach, describe, expect, it } from 'vitest';
import { openGitCache } from './open-git-cache.js';
import { ensureGit, gitAuth, redact, runGit } from './run-git.js';
import { removeDir, tempDir, testEnv } from './test-git.js';

const temps: string[] = [];
let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => {
    if (server === undefined) resolve();
    else server.close(() => resolve());
  });
  server = undefined;
  await Promise.all(temps.splice(0).map(removeDir));
});

const failure = async (promise: Promise<unknown>): Promise<{ message: string; data?: unknown }> =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error as { message: string; data?: unknown },
  );

describe('ensureGit', () => {
  it('names git and how to install it when git is not on the PATH', async () => {
    const empty = await tempDir('no-git');
    temps.push(empty);
    const error = await failure(ensureGit({ PATH: empty }));
    expect(error.data).toMatchObject({ reason: 'git-missing' });
    expect(error.message).toContain('needs git on the PATH');
    expect(error.message).toContain('apt-get install git');
  });

  it('refuses a git older than 2.31', async () => {
    const bin = await tempDir('old-git');
    temps.push(bin);
    await writeFile(path.join(bin, 'git'), '#!/bin/sh\necho "git version 2.20.1"\n');
    await chmod(path.join(bin, 'git'), 0o755);
    const error = await failure(ensureGit({ PATH: bin }));
    expect(error.data).toMatchObject({ reason: 'git-missing' });
    expect(error.message).toContain('2.20.1');
  });

  it('accepts the system git', async () => {
    expect(await ensureGit(testEnv)).toMatch(/^git version \d+\.\d+/);
  });
});

describe('credentials', () => {
  it('redacts URL userinfo and secrets', () => {
    expect(redact("fatal: unable to access 'https://ada:pw@host/x.git/': tok123 refused", ['tok123'])).toBe(
      "fatal: unable to access 'https://host/x.git/': *** refused",
    );
  });

  it('go to git as an extra header in the environment, after any GIT_CONFIG_* already there', () => {
    const auth = gitAuth({ tokenEnv: 'TOKEN', user: 'ada' }, { TOKEN: 'tok', GIT_CONFIG_COUNT: '2' }, 'https://host/x');
    expect(auth.env).toEqual({
      GIT_CONFIG_COUNT: '3',
      GIT_CONFIG_KEY_2: 'http.extraHeader',
      GIT_CONFIG_VALUE_2: `Authorization: Basic ${Buffer.from('ada:tok').toString('base64')}`,
    });
    expect(gitAuth(undefined, {}, 'https://host/x').env).toEqual({});
  });

  it('reach the server, and not the messages', async () => {
    const seen: IncomingHttpHeaders[] = [];
    server = createServer((request, response) => {
      seen.push(request.headers);
      response.writeHead(404).end('no such repository');
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const dir = await tempDir('token-cache');
    temps.push(dir);
    const token = 'glpat-supersecret-42';
    const cache = await openGitCache({ dir, logger: silentLogger(), env: { ...testEnv, LIB_TOKEN: token } });
    const error = await failure(cache.remote(`http://127.0.0.1:${String(port)}/team/lib.git`, { tokenEnv: 'LIB_TOKEN' }).resolve('main'));
    expect(seen[0]?.authorization).toBe(`Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`);
    expect(error.data).toMatchObject({ reason: 'not-a-repository' });
    expect(JSON.stringify({ message: error.message, data: error.data })).not.toContain(token);
  });

  it('never prompts: a remote asking for a password fails at once', async () => {
    server = createServer((_request, response) => {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end();
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const error = await failure(
      runGit(['ls-remote', `http://127.0.0.1:${String(port)}/x.git`], {
        env: { ...testEnv, GIT_ASKPASS: '/bin/false-askpass', SSH_ASKPASS: '/x' },
      }),
    );
    expect(error.message).toMatch(/terminal prompts disabled|could not read Username/i);
    const dir = await tempDir('auth-cache');
    temps.push(dir);
    const cache = await openGitCache({ dir, logger: silentLogger(), env: testEnv });
    const refused = await failure(cache.remote(`http://127.0.0.1:${String(port)}/x.git`).resolve('main'));
    expect(refused.data).toMatchObject({ reason: 'auth-failed' });
    expect(refused.message).toContain('auth_token_env');
  });
});
