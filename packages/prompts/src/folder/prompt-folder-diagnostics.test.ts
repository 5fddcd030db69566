import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from '@promptyard/core';
import { createPromptFolderSource } from './prompt-folder-source.js';
import { captureLogs, createTempFolder, testEngines, type TempFolder } from '../test-helpers.js';

let folder: TempFolder;

beforeEach(async () => {
  folder = await createTempFolder();
});

afterEach(async () => {
  await folder.cleanup();
});

/** Loads the folder once and returns what it reported through the sink, in file order. */
const diagnose = async (): Promise<Diagnostic[]> => {
  const found: Diagnostic[] = [];
  await createPromptFolderSource({
    dir: folder.dir,
    engines: testEngines,
    logger: captureLogs().logger,
    diagnostics: (diagnostic) => found.push(diagnostic),
  }).load();
  return found.sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0));
};

describe('createPromptFolderSource: diagnostics', () => {
  it('reports each problem of a file as a record: file, line, severity, code and message', async () => {
    await folder.writeAll({
      'bad-yaml.md': '---\ndescription: [unclosed\n---\nBody\n',
      'broken.md': '---\ndescription: Broken tag\n---\nHello {{ broken\n',
      'typo.md': '---\nargumnets:\n  - name: x\n---\nBody\n',
      'unused.md': '---\ndescription: d\narguments:\n  - name: code\n  - name: style\n---\nReview {{ code }}\n',
      'undeclared.md': '---\ndescription: d\narguments:\n  - name: code\n---\nReview {{ code }}\nfor {{ audience }}\n',
      'clean.md': '---\ndescription: Fine\n---\nHello {{ who }}\n',
    });
    const found = await diagnose();
    const at = (file: string): string => join(folder.dir, file);
    expect(found.map(({ file, line, severity, code }) => ({ file, line, severity, code }))).toEqual([
      { file: at('bad-yaml.md'), line: 3, severity: 'error', code: 'invalid-file' },
      { file: at('broken.md'), line: undefined, severity: 'error', code: 'invalid-file' },
      { file: at('typo.md'), line: 2, severity: 'warning', code: 'unknown-key' },
      { file: at('undeclared.md'), line: 7, severity: 'warning', code: 'undeclared-variable' },
      { file: at('unused.md'), line: 5, severity: 'warning', code: 'unused-argument' },
    ]);
    const message = (file: string): string | undefined => found.find((diagnostic) => diagnostic.file === at(file))?.message;
    expect(message('bad-yaml.md')).toMatch(/^invalid YAML frontmatter/);
    // The message does not repeat where: the caller shows file and line.
    expect(message('broken.md')).toBe('unclosed {{ tag');
    expect(message('typo.md')).toBe('unknown frontmatter key "argumnets" (did you mean "arguments"?): it is not read, so it has no effect');
    expect(message('unused.md')).toBe('argument "style" is declared but never used');
    expect(message('undeclared.md')).toBe('"audience" is used but not declared');
  });

  it('reports a name two files claim, and a prompt twig.toml declares without a file', async () => {
    await folder.writeAll({
      'a/x.md': 'One',
      'a/x.prompty': '---\nname: X\n---\nuser:\nTwo\n',
      'lib/twig.toml': '[prompts.ghost]\ndescription = "Nobody wrote me"\n',
      'lib/prompts/real.md': 'Real',
    });
    expect(await diagnose()).toEqual([
      {
        file: join(folder.dir, 'a/x.prompty'),
        severity: 'warning',
        code: 'duplicate-name',
        message: `prompt "a/x" is also defined in ${join(folder.dir, 'a/x.md')}, which is served (the first file by path)`,
      },
      {
        file: join(folder.dir, 'lib/twig.toml'),
        severity: 'warning',
        code: 'missing-file',
        message: 'declares prompt "ghost" but prompts/ghost.md is missing',
      },
    ]);
  });

  it('reports nothing for a clean folder, and loads the same without a sink', async () => {
    await folder.writeAll({ 'clean.md': '---\ndescription: Fine\n---\nHello {{ who }}\n' });
    expect(await diagnose()).toEqual([]);
    const entries = await createPromptFolderSource({ dir: folder.dir, engines: testEngines, logger: captureLogs().logger }).load();
    expect(entries.map((entry) => entry.name)).toEqual(['clean']);
  });
});
