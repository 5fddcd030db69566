import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveServerConfig } from './config.js';

describe('the config file lookup', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'promptyard-config-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads ./promptyard.toml when no file is named, with paths relative to it', async () => {
    await writeFile(join(dir, 'promptyard.toml'), '[server]\nname = "local"\n[prompts]\nfolders = ["mine"]\n');
    const resolved = await resolveServerConfig({ env: {}, cwd: dir, overrides: {} });
    expect(resolved.file).toBe(join(dir, 'promptyard.toml'));
    expect(resolved.config.server.name).toBe('local');
    expect(resolved.folders).toEqual([join(dir, 'mine')]);
  });

  it('prefers the named file, and reads none without one', async () => {
    await writeFile(join(dir, 'promptyard.toml'), '[server]\nname = "local"\n');
    await writeFile(join(dir, 'other.toml'), '[server]\nname = "other"\n');
    const named = await resolveServerConfig({ file: 'other.toml', env: {}, cwd: dir, overrides: {} });
    expect(named.config.server.name).toBe('other');
    await mkdir(join(dir, 'empty'));
    const none = await resolveServerConfig({ env: {}, cwd: join(dir, 'empty'), overrides: {} });
    expect(none.file).toBeUndefined();
  });

  it('keeps --prompts over the folders of ./promptyard.toml', async () => {
    await writeFile(join(dir, 'promptyard.toml'), '[prompts]\nfolders = ["mine"]\n');
    const resolved = await resolveServerConfig({ env: {}, cwd: dir, overrides: { prompts: ['flagged'] } });
    expect(resolved.folders).toEqual([join(dir, 'flagged')]);
  });
});

describe('environment warnings', () => {
  it('warns about a misspelt PROMPTYARD_* variable, and not about the ones the server or the gateway reads', async () => {
    const resolved = await resolveServerConfig({
      env: {
        PROMPTYARD_LIMITS_MAX_FILE_BYTS: '1',
        PROMPTYARD_PORT: '4000',
        PROMPTYARD_CONFIG: '',
        PROMPTYARD_GIT_WEBHOOK_SECRET: 's',
        PROMPTYARD_GATEWAY_CONFIG: 'gateway.toml',
        PROMPTYARD_TELEMETRY_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      },
      cwd: '/nowhere',
      overrides: {},
    });
    expect(resolved.warnings).toEqual([
      'environment variable PROMPTYARD_LIMITS_MAX_FILE_BYTS is not a setting and is ignored. Did you mean "PROMPTYARD_LIMITS_MAX_FILE_BYTES"?',
    ]);
  });
});
