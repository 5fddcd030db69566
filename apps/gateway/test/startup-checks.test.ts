/**
 * What the gateway says at start about its config: which file it read (./gateway.toml when no file
 * is named), PROMPTYARD_* variables it does not read, and TOML syntax errors with the parser's snippet.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, gatewayToml, makeFolder, runCli, startStdioGateway, stdioBackendCommand } from './harness.js';

afterEach(async () => {
  expect(await cleanup()).toEqual([]);
});

describe('promptyard-gateway at start', () => {
  it('names the config file read and warns about an unknown PROMPTYARD_* variable with the closest name', async () => {
    const config = gatewayToml({ alpha: { command: stdioBackendCommand({ name: 'alpha' }) } });
    const gateway = await startStdioGateway({ config, env: { PROMPTYARD_GATEWAY_LAZZY: 'true' } });
    const [read] = await gateway.stderr.waitFor(/config file read[^\n]*/);
    expect(read).toContain(gateway.configPath);
    await gateway.stderr.waitFor(
      /environment variable PROMPTYARD_GATEWAY_LAZZY is not a setting and is ignored\. Did you mean "PROMPTYARD_GATEWAY_LAZY"\?/,
    );
    expect((await gateway.client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it("reads ./gateway.toml without --config, and shows a TOML syntax error with the parser's snippet and caret", async () => {
    const dir = await makeFolder({ 'gateway.toml': '[servers.alpha]\ncommand = unquoted\n' });
    const result = await runCli(['status'], { cwd: dir });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`${join(dir, 'gateway.toml')}:2:11: invalid TOML: invalid value`);
    expect(result.stderr).toMatch(/\n {4}1: {2}\[servers\.alpha\]\n {4}2: {2}command = unquoted\n {18}\^/);
  });
});
