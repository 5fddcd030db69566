import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

const docsPage = (page: string) => readFile(new URL(`../../../docs/${page}`, import.meta.url), 'utf8');

describe('the configuration reference (docs/reference/configuration.md)', () => {
  it('documents every key of the schema', async () => {
    const readme = await docsPage('reference/configuration.md');
    for (const [section, fields] of Object.entries(configSchema)) {
      const label = section.endsWith('[]') ? `[[${section.slice(0, -2)}]]` : `[${section}]`;
      for (const key of Object.keys(fields)) expect(readme, `${label} ${key}`).toContain(`| \`${label} ${key}\``);
    }
  });
});

describe('the [tools] sections', () => {
  it('enable both tools by default, take keys from the environment and let *_BASE_URL override the file', async () => {
    const defaults = await resolveServerConfig({ env: {}, cwd: '/work', overrides: {} });
    expect(defaults.config['tools.web_search']).toMatchObject({ enabled: true, base_url: 'https://google.serper.dev', timeout_ms: 30_000 });
    expect(defaults.config['tools.perplexity_summary_search']).toMatchObject({
      enabled: true,
      model: 'sonar',
      deep_research_timeout_ms: 300_000,
    });
    expect(defaults.keys).toEqual({});
    const resolved = await resolveServerConfig({
      env: {
        SERPER_API_KEY: 'k1',
        PERPLEXITY_API_KEY: 'k2',
        SERPER_BASE_URL: 'http://127.0.0.1:1',
        PERPLEXITY_BASE_URL: 'http://127.0.0.1:2',
        PROMPTYARD_TOOLS_WEB_SEARCH_ENABLED: 'false',
        PROMPTYARD_TOOLS_PERPLEXITY_SUMMARY_SEARCH_MODEL: 'sonar-pro',
      },
      cwd: '/work',
      overrides: {},
    });
    expect(resolved.keys).toEqual({ serper: 'k1', perplexity: 'k2' });
    expect(resolved.config['tools.web_search']).toMatchObject({ enabled: false, base_url: 'http://127.0.0.1:1' });
    expect(resolved.config['tools.perplexity_summary_search']).toMatchObject({ base_url: 'http://127.0.0.1:2', model: 'sonar-pro' });
    await expect(
      resolveServerConfig({ env: { PROMPTYARD_TOOLS_PERPLEXITY_SUMMARY_SEARCH_MODEL: 'gpt' }, cwd: '/work', overrides: {} }),
    ).rejects.toThrow(/sonar-deep-research/);
  });
});

describe('the [[policy]] example (docs/teams/policy.md)', () => {
  it('is a valid promptyard.toml', async () => {
    const section = await docsPage('teams/policy.md');
    const example = /```toml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const dir = await mkdtemp(join(tmpdir(), 'policy-'));
    try {
      await writeFile(join(dir, 'promptyard.toml'), example);
      const resolved = await resolveServerConfig({ file: join(dir, 'promptyard.toml'), env: {}, cwd: dir, overrides: {} });
      expect(resolved.policy.map((rule) => `${rule.effect} ${rule.label}`)).toEqual([
        'allow [[policy]] #1 "everyone"',
        'allow [[policy]] #2 "platform"',
        'deny [[policy]] #3 "no deploys for contractors"',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the git library example (docs/guide/git-libraries.md)', () => {
  it('is a valid promptyard.toml: a followed tag of prompts and a branch of skills', async () => {
    const section = await docsPage('guide/git-libraries.md');
    const example = /```toml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const dir = await mkdtemp(join(tmpdir(), 'git-example-'));
    try {
      await writeFile(join(dir, 'promptyard.toml'), example);
      const resolved = await resolveServerConfig({ file: join(dir, 'promptyard.toml'), env: {}, cwd: dir, overrides: {} });
      expect(resolved.git.sources).toEqual([
        expect.objectContaining({ kind: 'prompts', ref: 'v1.4', path: 'prompts', pollMs: 60_000 }),
        expect.objectContaining({ kind: 'skills', url: 'git@git.example.com:team/skills.git', ref: 'main', path: '' }),
      ]);
      await expect(
        resolveServerConfig({ env: { PROMPTYARD_PROMPTS_FROZEN: 'yes' }, cwd: dir, overrides: {} }).then((config) => config.git.frozen),
      ).resolves.toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('[[prompts.git]] paths and urls', () => {
  const gitSources = async (table: string) => {
    const dir = await mkdtemp(join(tmpdir(), 'git-config-'));
    try {
      await writeFile(join(dir, 'promptyard.toml'), `[[prompts.git]]\n${table}\n`);
      return (await resolveServerConfig({ file: join(dir, 'promptyard.toml'), env: {}, cwd: '/elsewhere', overrides: {} })).git.sources.map(
        (source) => ({ url: source.url.replace(dir, '<dir>'), path: source.path }),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };

  it('resolves a local url against the config file and keeps a path inside the repository', async () => {
    expect(await gitSources('url = "lib.git"\npath = "./prompts/"')).toEqual([{ url: '<dir>/lib.git', path: 'prompts' }]);
    expect(await gitSources('url = "https://git.example.com/t/p.git"\npath = "a/../b"')).toEqual([
      { url: 'https://git.example.com/t/p.git', path: 'b' },
    ]);
    for (const path of ['../x', 'a/../../b', '/etc']) {
      await expect(gitSources(`url = "lib.git"\npath = "${path}"`)).rejects.toThrow(
        /\[\[prompts\.git\]\] #1 path .* leaves the repository/,
      );
    }
    await expect(gitSources('ref = "main"')).rejects.toThrow(/\[\[prompts\.git\]\] needs url/);
  });
});
