import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { envName } from './config-fields.js';
import { locateKey } from './config-sections.js';

const schema = {
  server: { name: { type: 'string', default: 'promptyard' }, level: { type: 'string', enum: ['debug', 'info'], default: 'info' } },
  transport: { port: { type: 'integer', min: 0, max: 65535, default: 3000 }, hosts: { type: 'string[]' } },
  'transport.rate_limit': { enabled: { type: 'boolean' }, burst: { type: 'integer', min: 1, default: 20 } },
} as const;

describe('loadConfig', () => {
  it('applies defaults, the file and then the environment', async () => {
    const { values } = await loadConfig(schema, {
      file: 'promptyard.toml',
      source: '[server]\nname = "mine"\n[transport]\nport = 8080\n[transport.rate_limit]\nburst = 5\n',
      env: {
        PROMPTYARD_TRANSPORT_PORT: '9090',
        PROMPTYARD_TRANSPORT_HOSTS: 'a.example, b.example',
        PROMPTYARD_TRANSPORT_RATE_LIMIT_ENABLED: 'yes',
      },
    });
    expect(values.server).toEqual({ name: 'mine', level: 'info' });
    expect(values.transport).toEqual({ port: 9090, hosts: ['a.example', 'b.example'] });
    expect(values['transport.rate_limit']).toEqual({ enabled: true, burst: 5 });
  });

  it('names the file, the line and what is allowed for every mistake', async () => {
    const source = '[server]\nlevel = "loud"\n\n[transport]\nport = 70000\nprot = 1\n\n[extra]\nx = 1\n';
    const error = await loadConfig(schema, { file: 'promptyard.toml', source }).catch((caught: unknown) => caught as Error);
    expect(error).toMatchObject({ code: 'CONFIG_INVALID' });
    const message = (error as Error).message;
    expect(message).toContain('promptyard.toml:2: [server] level must be one of "debug" or "info", got "loud"');
    expect(message).toContain('promptyard.toml:5: [transport] port must be an integer from 0 to 65535, got 70000');
    expect(message).toMatch(/promptyard\.toml:6: unknown key "prot" in \[transport\] \(did you mean "port"\?\)/);
    expect(message).toMatch(/promptyard\.toml:8: unknown section \[extra\]/);
  });

  it('reads durations and refuses a [[name]] entry without a required key', async () => {
    const durations = {
      watch: { poll: { type: 'duration', min: 1000, default: 60_000 } },
      'items[]': { url: { type: 'string', required: true }, every: { type: 'duration', default: 0 } },
    } as const;
    const { values } = await loadConfig(durations, {
      source: '[watch]\npoll = "1.5m"\n[[items]]\nurl = "a"\nevery = "250ms"\n[[items]]\nurl = "b"\n',
      env: {},
    });
    expect(values.watch.poll).toBe(90_000);
    expect(values['items[]']).toEqual([
      { url: 'a', every: 250 },
      { url: 'b', every: 0 },
    ]);
    expect((await loadConfig(durations, { source: '', env: { PROMPTYARD_WATCH_POLL: '0' } })).values.watch.poll).toBe(0);
    const error = await loadConfig(durations, { file: 'd.toml', source: '[watch]\npoll = "60"\n[[items]]\nevery = "1h"\n' }).then(
      () => new Error('expected the config to be refused'),
      (caught: unknown) => caught as Error,
    );
    expect(error.message).toContain('d.toml:2: [watch] poll must be a duration such as "60s", "5m" or "500ms" of at least 1000 ms');
    expect(error.message).toMatch(/\[\[items\]\] #1\): \[\[items\]\] needs url/);
  });

  it('reports TOML syntax errors with line and column', async () => {
    await expect(loadConfig(schema, { file: 'bad.toml', source: '[server]\nname = \n' })).rejects.toThrow(/bad\.toml:2:\d+/);
  });

  it('rejects an environment value of the wrong type, naming the variable', async () => {
    await expect(loadConfig(schema, { env: { PROMPTYARD_TRANSPORT_PORT: 'eighty' } })).rejects.toThrow(
      /PROMPTYARD_TRANSPORT_PORT: must be an integer/,
    );
  });

  it('explains a missing file', async () => {
    await expect(loadConfig(schema, { file: '/nonexistent/promptyard.toml' })).rejects.toThrow(/does not exist/);
  });
});

describe('helpers', () => {
  it('locates keys inside dotted tables', () => {
    const source = '[a]\nx = 1\n[a.b]\nx = 2\n';
    expect(locateKey(source, 'a', 'x')).toBe(2);
    expect(locateKey(source, 'a.b', 'x')).toBe(4);
    expect(locateKey(source, 'a.b')).toBe(3);
  });

  it('derives environment names', () => {
    expect(envName('transport.rate_limit', 'burst')).toBe('PROMPTYARD_TRANSPORT_RATE_LIMIT_BURST');
  });
});

describe('record fields', () => {
  const schema = { 'resources.doc': { libraries: { type: 'record', default: {} } } } as const;

  it('read a [section.key] table of strings, or name=value pairs from the environment', async () => {
    const fromFile = await loadConfig(schema, {
      source: '[resources.doc.libraries]\nfoo = "https://foo.dev/llms.txt"\n"foo/full" = "https://foo.dev/llms-full.txt"\n',
    });
    expect(fromFile.values['resources.doc'].libraries).toEqual({
      foo: 'https://foo.dev/llms.txt',
      'foo/full': 'https://foo.dev/llms-full.txt',
    });
    const fromEnv = await loadConfig(schema, {
      env: { PROMPTYARD_RESOURCES_DOC_LIBRARIES: 'a=https://a.dev/llms.txt, b=https://b.dev/llms.txt' },
    });
    expect(fromEnv.values['resources.doc'].libraries).toEqual({ a: 'https://a.dev/llms.txt', b: 'https://b.dev/llms.txt' });
    await expect(loadConfig(schema, { source: '[resources.doc.libraries]\nfoo = 1\n' })).rejects.toThrow(/a table of names to strings/);
  });
});

describe('array-of-tables sections', () => {
  const schema = { 'providers[]': { package: { type: 'string' }, options: { type: 'record', default: {} } } } as const;

  it('read each [[providers]] entry, checking its keys', async () => {
    const loaded = await loadConfig(schema, {
      source: '[[providers]]\npackage = "a"\n\n[[providers]]\npackage = "b"\noptions = { x = "1" }\n',
    });
    expect(loaded.values['providers[]']).toEqual([
      { package: 'a', options: {} },
      { package: 'b', options: { x: '1' } },
    ]);
    expect((await loadConfig(schema, {})).values['providers[]']).toEqual([]);
    await expect(loadConfig(schema, { source: '[[providers]]\npackag = "a"\n' })).rejects.toThrow(
      /unknown key "packag" in \[\[providers\]\]/,
    );
  });
});
