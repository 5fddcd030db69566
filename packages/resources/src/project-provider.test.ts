import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPromptyardError } from '@promptyard/core';
import type { ProjectOptions } from './project-provider.js';
import { createProjectProvider } from './project-provider.js';
import { installFakeCodeweaver } from './test-codeweaver.js';

let root: string;
let project: string;
let bin: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'promptyard-project-test-'));
  project = join(root, 'api');
  bin = join(root, 'bin');
  await mkdir(bin);
  const files: Record<string, string | Buffer> = {
    '.gitignore': 'secret.txt\nbuild/\n*.log\n',
    'README.md': '# API\n',
    'src/main.ts': 'export const main = (): number => 42;\n',
    'src/util/strings.ts': 'export const shout = (text: string): string => text.toUpperCase();\n',
    'src/.gitignore': '/generated.ts\n',
    'src/generated.ts': 'export const generated = true;\n',
    'secret.txt': 'hunter2\n',
    'build/out.js': 'compiled\n',
    'debug.log': 'noise\n',
    'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x1a, 0x0a]),
    'data/big.json': JSON.stringify({ rows: 'x'.repeat(5000) }),
  };
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(project, path, '..'), { recursive: true });
    await writeFile(join(project, path), content);
  }
});
afterEach(() => rm(root, { recursive: true, force: true }));

const provider = (overrides: Partial<ProjectOptions> = {}) =>
  createProjectProvider({
    paths: { api: project },
    command: 'codeweaver',
    timeoutMs: 5000,
    maxBytes: 100_000,
    maxFileBytes: 2000,
    env: { PATH: bin, ...overrides.env },
    ...overrides,
  });

const read = async (uri: string, options: Partial<ProjectOptions> = {}): Promise<string> => {
  const [first] = await provider(options).read(uri);
  return first !== undefined && 'text' in first ? first.text : '';
};

const failure = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    if (isPromptyardError(error)) return error.message;
    throw error;
  }
  throw new Error('expected a failure');
};

describe('project://{name} with CodeWeaver', () => {
  it('runs codeweaver on the folder and returns its Markdown', async () => {
    await installFakeCodeweaver(bin);
    const text = await read('project://api');
    expect(text).toMatch(/^# Tree View:\n```\n/);
    expect(text).toContain('src/main.ts\n```ts\nexport const main');
    expect(text).not.toContain('Markdown written');
  });

  it('finds the CLI under its seed spelling codeweawer', async () => {
    await installFakeCodeweaver(bin, 'codeweawer');
    expect(await read('project://api')).toContain('# Content:');
  });

  it('explains each failure: unknown name, missing CLI, non-zero exit, no output', async () => {
    expect(await failure(provider().read('project://apx'))).toMatch(/did you mean "project:\/\/api".*\[resources\.project\.paths\]/s);
    expect(await failure(provider().read('project://api'))).toMatch(/not found on PATH: install CodeWeaver.*"builtin"/s);
    await installFakeCodeweaver(bin);
    const failed = await failure(provider({ env: { PATH: bin, FAKE_CODEWEAVER_MODE: 'fail' } }).read('project://api'));
    expect(failed).toContain('exit 1');
    expect(failed).toContain('panic: runtime error');
    expect(failed).not.toContain('\u001b[');
    expect(await failure(provider({ env: { PATH: bin, FAKE_CODEWEAVER_MODE: 'silent' } }).read('project://api'))).toMatch(
      /exited 0 but wrote no code map/,
    );
    expect(await failure(provider({ timeoutMs: 300, env: { PATH: bin, FAKE_CODEWEAVER_MODE: 'hang' } }).read('project://api'))).toMatch(
      /longer than 300 ms/,
    );
  });

  it('lists and completes the configured names, and caps the output', async () => {
    await installFakeCodeweaver(bin);
    const projects = provider({ maxBytes: 200 });
    expect(projects.list().map((resource) => resource.uri)).toEqual(['project://api']);
    expect(await projects.complete?.('project://{name}', 'name', 'a')).toEqual(['api']);
    const [first] = await projects.read('project://api');
    expect(first !== undefined && 'text' in first ? first.text : '').toMatch(/\[output cut at 200 bytes/);
  });
});

describe('project://{name} with the builtin renderer', () => {
  it('renders the tree and contents, honouring .gitignore files and skipping binaries and large files', async () => {
    const text = await read('project://api', { command: 'builtin' });
    expect(text).toContain('# Tree View:\n```\napi\n├── data\n│   └── big.json\n├── src\n│   ├── util\n│   │   └── strings.ts\n');
    expect(text).toContain('src/util/strings.ts\n```ts\nexport const shout');
    expect(text).toContain('logo.png\n[binary file skipped]');
    expect(text).toMatch(/data\/big\.json\n\[content skipped: \d+ bytes is over the 2000-byte limit\]/);
    for (const ignored of [
      '── secret.txt',
      'hunter2',
      '── build',
      'compiled',
      '── debug.log',
      'noise',
      '── generated.ts',
      'generated = true',
    ])
      expect(text).not.toContain(ignored);
  });
});
