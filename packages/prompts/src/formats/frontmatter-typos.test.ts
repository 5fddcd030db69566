import { describe, expect, it } from 'vitest';
import { captureLogs, createFakeLiquid, createTempFolder, testEngines } from '../test-helpers.js';
import type { NativeFormat } from '../native/native-definition.js';
import { createNativePromptSource } from '../native/native-prompt-source.js';
import { findKeyTypos, keyLine } from './frontmatter-typos.js';
import { parsePromptFile } from './parse-prompt-file.js';

describe('findKeyTypos', () => {
  it('reports keys one or two edits from a known key, including case-only differences', () => {
    expect(findKeyTypos({ argumnets: [], Description: 'x', titel: 'y' }, 'markdown')).toEqual([
      { key: 'argumnets', suggestion: 'arguments', path: '' },
      { key: 'Description', suggestion: 'description', path: '' },
      { key: 'titel', suggestion: 'title', path: '' },
    ]);
  });

  it('allows keys far from every known key, and the keys other tools document', () => {
    expect(findKeyTypos({ tags: [], model: 'x', category: 'y', args: 'z' }, 'markdown')).toEqual([]);
    expect(findKeyTypos({ 'allowed-tools': 'Bash', tools: [], mode: 'agent', model: 'opus' }, 'dollar')).toEqual([]);
  });

  it('finds the line of a nested key', () => {
    expect(keyLine('---\ninputs:\n  - name: a\n    requried: true\n---\n', 'requried')).toBe(4);
    expect(keyLine('promt = "x"\n', 'promt')).toBe(1);
  });
});

describe('typos in Markdown prompts', () => {
  it('warns at load with the key, the suggestion and the line, and keeps the key as metadata', () => {
    const logs = captureLogs();
    const text = '---\ndescription: Review code\nargumnets:\n  - name: code\n    required: true\n---\nReview {{ code }}\n';
    const entry = parsePromptFile({
      text,
      file: '/p/review.md',
      name: 'review',
      source: 'review.md',
      engines: testEngines,
      logger: logs.logger,
    });
    // The surprise itself: the declared argument is not read, so "code" is an optional template variable.
    expect(entry.arguments).toEqual([expect.objectContaining({ name: 'code', required: false })]);
    expect(logs.warnings()).toEqual([
      expect.objectContaining({
        message: 'unknown frontmatter key "argumnets" (did you mean "arguments"?): it is not read, so it has no effect',
        fields: expect.objectContaining({ file: '/p/review.md', line: 3 }),
      }),
    ]);
  });

  it('names the closest key of an argument item in its error', () => {
    const text = '---\narguments:\n  - name: code\n    requried: true\n---\n{{ code }}\n';
    expect(() => parsePromptFile({ text, file: '/p/a.md', name: 'a', source: 'a.md', engines: testEngines })).toThrow(
      'arguments[0] has an unknown key "requried" (did you mean "required"?); allowed keys:',
    );
  });
});

describe('typos in the formats of other tools', () => {
  const cases: { format: NativeFormat; dir: string; file: string; text: string; message: string; line: number }[] = [
    {
      format: 'claude-commands',
      dir: '.claude/commands',
      file: 'fix.md',
      text: '---\ndescription: Fix\nargument-hnit: [issue]\n---\nFix $ARGUMENTS\n',
      message: 'unknown frontmatter key "argument-hnit" (did you mean "argument-hint"?)',
      line: 3,
    },
    {
      format: 'copilot',
      dir: '.github/prompts',
      file: 'form.prompt.md',
      text: '---\ndescriptoin: Form\n---\nMake ${input:name}\n',
      message: 'unknown frontmatter key "descriptoin" (did you mean "description"?)',
      line: 2,
    },
    {
      format: 'continue',
      dir: '.continue/prompts',
      file: 'c.md',
      text: '---\nname: c\ninvokible: true\n---\nDo it\n',
      message: 'unknown frontmatter key "invokible" (did you mean "invokable"?)',
      line: 3,
    },
    {
      format: 'gemini',
      dir: '.gemini/commands',
      file: 'g.toml',
      text: 'descripton = "G"\nprompt = "Do {{args}}"\n',
      message: 'unknown frontmatter key "descripton" (did you mean "description"?)',
      line: 1,
    },
    {
      format: 'prompty',
      dir: 'p',
      file: 'greet.prompty',
      text: '---\nname: Greet\ninputs:\n  - name: firstName\n    requried: true\n---\nuser:\nHi {{ firstName }}\n',
      message: 'unknown frontmatter key "inputs[0].requried" (did you mean "inputs[0].required"?)',
      line: 5,
    },
  ];

  for (const { format, dir, file, text, message, line } of cases) {
    it(`${format}: warned at load and reported by inspect`, async () => {
      const folder = await createTempFolder();
      try {
        await folder.writeAll({ [`${dir}/${file}`]: text });
        const logs = captureLogs();
        const source = createNativePromptSource({
          format,
          dir: `${folder.dir}/${dir}`,
          root: folder.dir,
          prefix: '',
          jinja: createFakeLiquid('jinja'),
          logger: logs.logger,
        });
        await source.load();
        expect(logs.warnings()).toEqual([
          expect.objectContaining({ message: expect.stringContaining(message), fields: expect.objectContaining({ line }) }),
        ]);
        const { problems } = await source.inspect();
        expect(problems).toEqual([expect.objectContaining({ severity: 'warning', line, message: expect.stringContaining(message) })]);
        await source.close?.();
      } finally {
        await folder.cleanup();
      }
    });
  }
});
