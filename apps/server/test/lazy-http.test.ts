/**
 * A server on stdio does not load the HTTP front (`@promptyard/mcp`'s `http/serve-http.ts`, its
 * sessions and auth gate: the binary's `serve-http-<hash>.js` chunk); one on HTTP does. Black-box:
 * the built binary, with a module-load hook that writes each ES module's URL to a file as it loads.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { recordModuleLoads } from '../../../test-support/module-loads.js';
import { promptFiles } from './fixtures.js';
import { cleanup, connectHttp, makeFolder, startHttp, startStdio } from './harness.js';

afterEach(cleanup);

/** The environment that loads the hook, and the file the loaded modules' URLs go to. */
const recording = async (): Promise<{ env: Record<string, string>; loaded: () => Promise<string[]> }> =>
  recordModuleLoads(await makeFolder({}));

const front = /\/server\/dist\/serve-http-[\w-]+\.js$/;

describe('the HTTP front of promptyard-server', () => {
  it('is not loaded when serving stdio', async () => {
    const prompts = await makeFolder(promptFiles);
    const { env, loaded } = await recording();
    const { client } = await startStdio(['--prompts', prompts, '--no-watch'], { env });
    expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0);
    const urls = await loaded();
    expect(urls.some((url) => url.endsWith('/server/dist/cli.js'))).toBe(true);
    expect(urls.filter((url) => front.test(url))).toEqual([]);
  });

  it('is loaded when serving HTTP', async () => {
    const prompts = await makeFolder(promptFiles);
    const { env, loaded } = await recording();
    const server = await startHttp(['--prompts', prompts, '--no-watch'], { env });
    const client = await connectHttp(server.url);
    expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0);
    expect((await loaded()).filter((url) => front.test(url))).toHaveLength(1);
  });
});
