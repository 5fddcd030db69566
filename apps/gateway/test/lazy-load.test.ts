/**
 * Each command loads its own code: `--version` and `status` do not load the serving code (the
 * bundle's `main-<hash>.js` chunk), the SDK's client (`upstream-<hash>.js`) or the HTTP front
 * (`serve-http-<hash>.js`); serving over stdio loads the first two and not the third. Black-box: the
 * built binary with a module-load hook that writes each ES module's URL to a file as it loads.
 */
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordModuleLoads } from '../../../test-support/module-loads.js';
import { stdioBackendCommand } from './backends/spawn.js';
import { cleanup, cli, gatewayToml, makeFolder, runCli, startStdioGateway } from './harness.js';

afterEach(cleanup);

const chunk = (name: string): RegExp => new RegExp(`/gateway/dist/${name}-[\\w-]+\\.js$`);
const serving = chunk('main');
const sdkClient = chunk('upstream');
const httpFront = chunk('serve-http');
const config = gatewayToml({ echo: { command: stdioBackendCommand({ name: 'echo' }) } });

/** The gateway's own module URLs (the hook also records its backends'). */
const gatewayLoads = (urls: readonly string[]): string[] => urls.filter((url) => url.includes('/gateway/dist/'));

describe('what each promptyard-gateway command loads', () => {
  it('names chunks the bundle has (so a check that one is not loaded cannot pass for want of it)', () => {
    const chunks = readdirSync(dirname(cli)).map((file) => `/gateway/dist/${file}`);
    for (const pattern of [serving, sdkClient, httpFront]) expect(chunks.some((file) => pattern.test(file))).toBe(true);
  });

  it('--version loads neither the serving code nor the MCP client', async () => {
    const { env, loaded } = await recordModuleLoads(await makeFolder({}));
    const result = await runCli(['--version'], { env });
    expect(result.code).toBe(0);
    const urls = gatewayLoads(await loaded());
    expect(urls.some((url) => url.endsWith('/gateway/dist/cli.js'))).toBe(true);
    expect(urls.filter((url) => serving.test(url) || sdkClient.test(url) || httpFront.test(url))).toEqual([]);
  });

  it('status loads the MCP client but not the serving code', async () => {
    const dir = await makeFolder({ 'gateway.toml': config });
    const { env, loaded } = await recordModuleLoads(dir);
    const result = await runCli(['status', '--config', `${dir}/gateway.toml`], { env });
    expect(result.code).toBe(0);
    const urls = gatewayLoads(await loaded());
    expect(urls.some((url) => sdkClient.test(url))).toBe(true);
    expect(urls.filter((url) => serving.test(url) || httpFront.test(url))).toEqual([]);
  });

  it('serving over stdio loads the serving code and the MCP client, not the HTTP front', async () => {
    const { env, loaded } = await recordModuleLoads(await makeFolder({}));
    const { client } = await startStdioGateway({ config, env });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo_echo');
    const urls = gatewayLoads(await loaded());
    expect(urls.some((url) => serving.test(url))).toBe(true);
    expect(urls.some((url) => sdkClient.test(url))).toBe(true);
    expect(urls.filter((url) => httpFront.test(url))).toEqual([]);
  });
});
