import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createTestContext, promptSourceContract } from '@promptyard/core/testing';
import type { ContractCheck } from '@promptyard/core/testing';
import { createNativePromptSource, createPromptFolderSource } from '@promptyard/prompts';
import { createArgumentsEngine, createJinjaEngine, createLiquidEngine, createPlainEngine } from '@promptyard/templates';
import { afterAll, describe, it } from 'vitest';

// The prompt sources promptyard-server builds, with the engines it gives them.
const engines = {
  liquid: createLiquidEngine(),
  jinja: createJinjaEngine(),
  arguments: createArgumentsEngine(),
  plain: createPlainEngine(),
};
const dir = await mkdtemp(join(tmpdir(), 'promptyard-source-contracts-'));
const files: Readonly<Record<string, string>> = {
  'prompts/review.md':
    '---\ndescription: Review code\narguments:\n  - name: code\n    required: true\n  - name: language\n    enum: [typescript, python]\n    default: typescript\n---\nReview this {{ language }} code:\n\n{{ code }}\n',
  'prompts/git/commit.md': '# Commit message\n\nWrite a commit message for {{ diff }}.\n',
  'prompts/fix.md': 'Fix issue $ARGUMENTS now.\n',
  '.claude/commands/explain.md': '---\ndescription: Explain a file\nargument-hint: <file>\n---\nExplain $ARGUMENTS in plain words.\n',
};
for (const [path, text] of Object.entries(files)) {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), text);
}
afterAll(() => rm(dir, { recursive: true, force: true }));

const run = (checks: readonly ContractCheck[]): void => {
  for (const check of checks) it(check.name, check.run);
};

describe('a prompt folder meets the prompt source contract', () => {
  run(
    promptSourceContract({
      context: createTestContext({ engines }),
      create: (context) => createPromptFolderSource({ dir: join(dir, 'prompts'), engines: context.engines, logger: context.logger }),
      renders: [
        { name: 'review', arguments: { code: 'let x = 1' }, text: 'Review this typescript code:\n\nlet x = 1\n' },
        { name: 'git/commit', arguments: { diff: 'the diff' }, text: /Write a commit message for the diff\./ },
        { name: 'fix', arguments: { arguments: '#42 {{ literal }}' }, text: 'Fix issue #42 {{ literal }} now.\n' },
      ],
      requireArguments: ['review'],
      completions: [{ name: 'review', argument: 'language', value: 'py', expected: ['python'] }],
    }),
  );
});

describe('a discovered Claude commands folder meets the prompt source contract', () => {
  run(
    promptSourceContract({
      context: createTestContext({ engines }),
      create: (context) =>
        createNativePromptSource({
          format: 'claude-commands',
          dir: join(dir, '.claude/commands'),
          root: dir,
          prefix: 'claude:',
          jinja: engines.jinja,
          logger: context.logger,
        }),
      renders: [{ name: 'claude:explain', arguments: { arguments: 'src/app.ts' }, text: 'Explain src/app.ts in plain words.\n' }],
    }),
  );
});
