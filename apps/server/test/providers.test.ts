import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { promptFiles } from './fixtures.js';
import { cleanup, makeFolder, runCli, startStdio } from './harness.js';

afterEach(cleanup);

const textOf = (result: { contents: readonly unknown[] }): string => (result.contents[0] as { text?: string } | undefined)?.text ?? '';
const notes = 'options = { standup = "# Standup for {{ team }}\\n\\nDeploys happen on Friday.", retro = "# Retro" }';

/** A config folder with the example provider installed next to it, as `npm install` would. */
const withNotes = async (files: Readonly<Record<string, string>>): Promise<string> => {
  const dir = await makeFolder({ ...promptFiles, ...files });
  await mkdir(join(dir, 'node_modules', '@promptyard'), { recursive: true });
  await symlink(
    fileURLToPath(new URL('../../../packages/provider-notes', import.meta.url)),
    join(dir, 'node_modules', '@promptyard', 'provider-notes'),
    'dir',
  );
  return dir;
};

describe('[[providers]]', () => {
  it('loads every kind a package exports: resources, tools and prompts', async () => {
    const dir = await withNotes({ 'promptyard.toml': `[[providers]]\npackage = "@promptyard/provider-notes"\n${notes}\n` });
    const { client } = await startStdio(['--config', join(dir, 'promptyard.toml'), '--prompts', dir, '--no-watch']);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toContain('note://standup');
    expect(textOf(await client.readResource({ uri: 'note://retro' }))).toBe('# Retro');
    const completion = await client.complete({
      ref: { type: 'ref/resource', uri: 'note://{name}' },
      argument: { name: 'name', value: 'st' },
    });
    expect(completion.completion.values).toEqual(['standup']);

    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('search_notes');
    expect(await client.callTool({ name: 'search_notes', arguments: { query: 'friday' } })).toEqual({
      content: [{ type: 'text', text: 'standup: Deploys happen on Friday.' }],
    });
    expect(await client.callTool({ name: 'search_notes', arguments: { query: '' } })).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments for tool "search_notes": "query" must not be empty.' }],
      isError: true,
    });

    const prompt = (await client.listPrompts()).prompts.find((entry) => entry.name === 'note:standup');
    expect(prompt).toEqual({ name: 'note:standup', description: 'Standup for {{ team }}', arguments: [{ name: 'team', required: false }] });
    expect(await client.getPrompt({ name: 'note:standup', arguments: { team: 'platform' } })).toEqual({
      description: 'Standup for {{ team }}',
      messages: [{ role: 'user', content: { type: 'text', text: '# Standup for platform\n\nDeploys happen on Friday.' } }],
    });
  });

  it('takes only the kinds the entry names', async () => {
    const dir = await withNotes({
      'promptyard.toml': `[[providers]]\npackage = "@promptyard/provider-notes"\nkinds = ["tools"]\n${notes}\n`,
    });
    const { client } = await startStdio(['--config', join(dir, 'promptyard.toml'), '--prompts', dir, '--no-watch']);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('search_notes');
    expect((await client.listResources()).resources.map((resource) => resource.uri).filter((uri) => uri.startsWith('note:'))).toEqual([]);
    expect((await client.listPrompts()).prompts.map((entry) => entry.name).filter((name) => name.startsWith('note:'))).toEqual([]);
  });

  it('explains a missing package, a second provider of one scheme and a kind the package lacks', async () => {
    const dir = await withNotes({
      'missing.toml': '[[providers]]\npackage = "promptyard-provider-nope"\n',
      'twice.toml': '[[providers]]\npackage = "@promptyard/provider-notes"\n\n[[providers]]\npackage = "@promptyard/provider-notes"\n',
      'kinds.toml': '[[providers]]\npackage = "@promptyard/provider-notes"\nkinds = ["resources", "widgets"]\n',
    });
    const missing = await runCli(['--config', join(dir, 'missing.toml'), '--prompts', dir, '--no-watch']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Provider package "promptyard-provider-nope" is not installed.*npm install promptyard-provider-nope/s);
    const twice = await runCli(['--config', join(dir, 'twice.toml'), '--prompts', dir, '--no-watch']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/Two resource providers serve the note: scheme/);
    const kinds = await runCli(['--config', join(dir, 'kinds.toml'), '--prompts', dir, '--no-watch']);
    expect(kinds.code).toBe(2);
    expect(kinds.stderr).toContain(
      'Provider package "@promptyard/provider-notes" has unknown kinds "widgets" in [[providers]]; kinds takes "resources", "tools" or "prompts".',
    );
  });

  it('lists and renders provider prompts in the list and render commands', async () => {
    const dir = await withNotes({ 'promptyard.toml': `[[providers]]\npackage = "@promptyard/provider-notes"\n${notes}\n` });
    const listed = await runCli(['list', '--config', join(dir, 'promptyard.toml'), '--prompts', dir]);
    expect(listed.stdout).toContain('note:standup(team?) — Standup for {{ team }}\n');
    const rendered = await runCli([
      'render',
      'note:standup',
      '--arg',
      'team=web',
      '--config',
      join(dir, 'promptyard.toml'),
      '--prompts',
      dir,
    ]);
    expect(rendered.stdout).toBe('# Standup for web\n\nDeploys happen on Friday.\n');
  });
});
