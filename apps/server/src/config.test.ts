import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseCli } from './args.js';
import { configSchema, resolveServerConfig } from './config.js';

describe('resolveServerConfig', () => {
  it('layers defaults, environment (with short names) and flags', async () => {
    const resolved = await resolveServerConfig({
      env: { PROMPTYARD_PORT: '4000', PROMPTYARD_PROMPTS: '/a:/b', PROMPTYARD_LIMITS_MAX_FILE_BYTES: '2048' },
      cwd: '/work',
      overrides: { transport: 'http', port: 5000 },
    });
    expect(resolved.config.transport).toMatchObject({ type: 'http', port: 5000, host: '127.0.0.1' });
    expect(resolved.folders).toEqual(['/a', '/b']);
    expect(resolved.config.limits.max_file_bytes).toBe(2048);
  });

  it('resolves relative folders against the working directory for flags', async () => {
    const resolved = await resolveServerConfig({ env: {}, cwd: '/work', overrides: { prompts: ['prompts', '/abs'] } });
    expect(resolved.folders).toEqual(['/work/prompts', '/abs']);
  });
});

describe('parseCli', () => {
  it('parses repeatable --prompts and validates values', () => {
    const options = parseCli(['-p', 'a', '--prompts', 'b', '--transport', 'http', '--port', '0', '--no-watch'], {});
    expect(options.overrides).toEqual({ prompts: ['a', 'b'], transport: 'http', port: 0, watch: false });
    expect(() => parseCli(['--port', 'x'], {})).toThrow(/--port must be an integer/);
    expect(() => parseCli(['--bogus'], {})).toThrow(/--help/);
    expect(parseCli([], { PROMPTYARD_CONFIG: 'c.toml' }).config).toBe('c.toml');
  });
});

describe('the README config reference', () => {
  it('documents every key of the schema', async () => {
    const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
    for (const [section, fields] of Object.entries(configSchema)) {
      for (const key of Object.keys(fields)) expect(readme, `[${section}] ${key}`).toContain(`| \`[${section}] ${key}\``);
    }
  });
});
