/**
 * Oracle cases for Continue prompt files, from continuedev/continue at
 * d0a3c0b626b5bebc3bef4742eec05a0242be0bab:
 * - core/promptFiles/parsePromptFile.ts (name, description, version, <system>, the `\n---\n` split):
 *   the expected values below are what that function returns for each file (run on these inputs);
 * - gui/src/components/mainInput/TipTapEditor/utils/renderPromptv1.test.ts, its cases
 *   "should render a prompt file with no attachments or templated input", "should render a prompt
 *   file templated input", "Should handle file attachments", "should handle supported providers",
 *   "should render file read errors within prompt";
 * - gui/…/renderSlashCommand.ts: a prompt that is not version 1 and lacks `{{{ input }}}` is
 *   `[prompt, input].join("\n\n").trim()`.
 */
import { describe, expect, it } from 'vitest';
import type { TemplateEngine } from '@promptyard/core';
import { checkContinueFile } from './continue-checks.js';
import { parseContinueFormat } from './continue-format.js';

const jinja = {} as TemplateEngine;
const read = (path: string, text: string) => parseContinueFormat({ text, file: `/p/${path}`, path, jinja });

/** The messages a prompt renders to: its system message first when it has one. */
const render = async (path: string, text: string, input: string): Promise<string[]> => {
  const definition = read(path, text);
  return Promise.all(definition.sections.map(async (section) => String(await section.render(input === '' ? {} : { arguments: input }))));
};

describe('Continue prompt files (oracle: parsePromptFile.ts)', () => {
  it('a legacy preamble names and describes the prompt; <system> becomes the first message', async () => {
    const text = 'name: Old\ndescription: Legacy\n---\n<system>\nYou are terse.\n</system>\nAnswer: {{{ input }}}';
    expect(read('legacy.prompt', text)).toMatchObject({ title: 'Old', description: 'Legacy' });
    expect(await render('legacy.prompt', text, 'why')).toEqual(['You are terse.', 'Answer: why']);
  });

  it('without a preamble the file name (up to .prompt) is the description; the rendered prompt is trimmed', async () => {
    expect(read('bare.prompt', '{{{ input }}}\n\nRewrite this.\n').description).toBe('bare');
    expect(await render('bare.prompt', '{{{ input }}}\n\nRewrite this.\n', 'a  b')).toEqual(['a  b\n\nRewrite this.']);
  });

  it('a Markdown prompt reads up to a second --- line, and is described by its name', async () => {
    const text = '---\nname: Explain code\ninvokable: true\n---\nExplain the code.\n\n---\n\nMore text.\n';
    expect(read('explain.md', text)).toMatchObject({ title: 'Explain code', description: 'Explain code' });
    // The prompt keeps its final newline before the "\n\n" Continue joins the text with.
    expect(await render('explain.md', text, 'briefly')).toEqual(['Explain the code.\n\n\nbriefly']);
    expect(read('nofm.md', 'Just text.\n').description).toBe('nofm.md');
  });

  it('text before <system> is dropped and version: 1 renders through Handlebars ({{ input }} escaped)', async () => {
    const text = 'version: 1\n---\nBefore <system>Sys</system> After {{ input }}';
    expect(await render('v1.prompt', text, 'a<b')).toEqual(['Sys', 'After a&lt;b\n\na<b']);
  });

  it('a <system> never closed is refused, as Continue fails on it', () => {
    expect(() => read('unclosed.prompt', 'name: x\n---\n<system>\nno close')).toThrow(/<system> is never closed/);
  });

  it('{{{input}}} without the spaces is not filled outside version 1: the text is appended', async () => {
    expect(await render('loose.prompt', 'Q: {{{input}}}', 'why')).toEqual(['Q: {{{input}}}\n\nwhy']);
    expect(await render('loose.prompt', 'version: 1\n---\nQ: {{{input}}}', 'why')).toEqual(['Q: why']);
  });
});

describe('Continue version 1 rendering (oracle: renderPromptv1.test.ts)', () => {
  const v1 = (body: string): string => `version: 1\n---\n${body}`;

  it('should render a prompt file with no attachments or templated input', async () => {
    expect(await render('t.prompt', v1('Simple prompt with no attachments'), 'User input')).toEqual([
      'Simple prompt with no attachments\n\nUser input',
    ]);
  });

  it('should render a prompt file templated input', async () => {
    expect(await render('t.prompt', v1('{{{ input }}} Simple prompt with no attachments'), 'User input')).toEqual([
      'User input Simple prompt with no attachments',
    ]);
  });

  // Continue reads the file or asks its context provider here ("Content with URL Test file content",
  // "Tell me about Diff provider content please"); Promptyard has neither, keeps the expression and
  // says so in `validate`.
  it('Should handle file attachments / should handle supported providers: kept as written, with a warning', async () => {
    expect(await render('t.prompt', v1('Content with URL {{{ testFile.txt }}}'), 'User input')).toEqual([
      'Content with URL {{{ testFile.txt }}}\n\nUser input',
    ]);
    const text = v1('Tell me about {{{ diff }}} please');
    expect(await render('t.prompt', text, 'User input')).toEqual(['Tell me about {{{ diff }}} please\n\nUser input']);
    expect(checkContinueFile({ text, file: '/p/t.prompt', path: 't.prompt', jinja })).toEqual([
      {
        line: 3,
        message:
          '{{{ diff }}}, which Continue fills from its diff context provider, is not supported yet: Promptyard sends it as written; put what the model needs in the prompt or in the arguments text',
      },
    ]);
  });
});

describe('Continue preambles that are not settings (oracle: parsePromptFile.ts, YAML.parse)', () => {
  it('a preamble that is YAML but not a mapping names nothing: the prompt is what follows the --- line', async () => {
    const text = 'Explain this.\n---\nMore text.';
    expect(read('plain.prompt', text).description).toBe('plain');
    expect(await render('plain.prompt', text, '')).toEqual(['More text.']);
    expect(checkContinueFile({ text, file: '/p/plain.prompt', path: 'plain.prompt', jinja })[0]?.message).toMatch(
      /^the text before the first --- line is ignored, as Continue ignores it/,
    );
  });
});
