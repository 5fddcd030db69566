import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { promptFiles } from './fixtures.js';
import { cleanup, makeFolder, Output, runCli, spawnCli, waitForExit } from './harness.js';

afterEach(cleanup);

describe('promptyard-server subcommands', () => {
  it('takes the subcommand after the options too', async () => {
    const dir = await makeFolder(promptFiles);
    const before = await runCli(['list', '--prompts', dir]);
    const after = await runCli(['--prompts', dir, '--no-watch', 'list']);
    expect(after.code).toBe(0);
    expect(after.stdout).toBe(before.stdout);
    expect(after.stdout).toContain('review');
    const rendered = await runCli(['-p', dir, 'render', 'review', '--arg', 'code=x()', '--arg', 'language=js']);
    expect(rendered).toMatchObject({ code: 0, stdout: expect.stringContaining('Review this js code') });
  });

  it('suggests the closest command for a mistyped one', async () => {
    const dir = await makeFolder(promptFiles);
    const result = await runCli(['--prompts', dir, 'lsit']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown command "lsit": did you mean "list"?');
  });
});

describe('an empty library', () => {
  it('gets the same sentence, naming where it looked, from list, validate, render and serving', async () => {
    const base = await makeFolder({});
    const empty = join(base, 'prompts');
    await mkdir(empty);
    const sentence = `No prompts found: looked in ${empty}; add a prompt file there`;
    for (const args of [['list'], ['validate'], ['render', 'review'], ['--no-watch']]) {
      const result = await runCli(['--prompts', empty, ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(`promptyard-server: ${sentence}`);
    }
    // Watched, the folder may fill up: served, with the same sentence as a warning.
    const child = spawnCli(['--prompts', empty]);
    const stderr = new Output();
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    await stderr.waitFor(/serving on stdio/);
    expect(stderr.text).toContain(sentence);
    child.stdin.end();
    expect(await waitForExit(child)).toBe(0);
  });

  it('says where discovery looked when nothing is configured', async () => {
    const project = await makeFolder({});
    await mkdir(join(project, '.claude', 'commands'), { recursive: true });
    const home = await makeFolder({});
    for (const args of [['list'], ['validate'], []]) {
      const result = await runCli(args, { cwd: project, env: { PROMPTYARD_HOME: home } });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/No prompts found: looked in \S+\.claude[/\\]commands \(claude-commands\)/);
    }
  });
});

describe('promptyard-server schema', () => {
  it('prints the JSON Schema of promptyard.toml the package ships, whatever the config', async () => {
    const shipped = await readFile(new URL('../schema/promptyard.schema.json', import.meta.url), 'utf8');
    const result = await runCli(['schema'], { env: { PROMPTYARD_TRANSPORT_PORT: 'not a port' } });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(shipped);
    expect(JSON.parse(result.stdout)).toMatchObject({ title: 'promptyard.toml', additionalProperties: false });
  });
});
