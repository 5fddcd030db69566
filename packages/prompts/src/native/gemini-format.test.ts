/**
 * Oracle for Gemini CLI custom commands. Expected outputs are those of Gemini CLI's own tests at
 * google-gemini/gemini-cli commit 5411f113 (packages/cli 0.56.0-nightly.20260806):
 * - packages/cli/src/services/FileCommandLoader.test.ts: 'correctly processes a command with {{args}}',
 *   'correctly processes a command without {{args}}', 'should sanitize colons in filenames…',
 *   'sanitizes command names from filenames containing control characters', 'truncates excessively long filenames'
 * - packages/cli/src/services/prompt-processors/argumentProcessor.test.ts: 'should append the full command if
 *   args are provided', 'should NOT append the full command if no args are provided'
 * - packages/cli/src/services/prompt-processors/shellProcessor.test.ts: 'should perform raw replacement if no
 *   shell injections are present (optimization path)'
 * - packages/cli/src/utils/commands.test.ts: 'should handle extra whitespace' (args `some data`)
 * - packages/core/src/utils/partUtils.ts `appendToLastTextPart` (separator '\n\n', no trimming)
 */
import { describe, expect, it } from 'vitest';
import { createFakeLiquid } from '../test-helpers.js';
import { geminiCommandName, parseGeminiFormat, renderGeminiPrompt, shellInjections } from './gemini-format.js';

const parse = (path: string, text: string) => parseGeminiFormat({ text, path, file: `/cmds/${path}`, jinja: createFakeLiquid('jinja') });

const render = async (path: string, text: string, args: Record<string, string>): Promise<unknown> =>
  parse(path, text).sections[0]?.render(args);

describe('Gemini CLI commands (oracle: gemini-cli 5411f113)', () => {
  it('substitutes {{args}} with the typed text (FileCommandLoader.test: "with {{args}}")', async () => {
    const toml = 'prompt = "The user wants to: {{args}}"\ndescription = "Shorthand test"';
    expect(await render('shorthand.toml', toml, { arguments: 'do something cool' })).toBe('The user wants to: do something cool');
    expect(await render('shorthand.toml', 'prompt = "The user said: {{args}}"', { arguments: 'user input' })).toBe(
      'The user said: user input',
    );
  });

  it('appends the whole typed command when the prompt has no {{args}} (FileCommandLoader.test: "without {{args}}")', async () => {
    const toml = 'prompt = "This is the instruction."\ndescription = "Default processor test"';
    expect(await render('model_led.toml', toml, { arguments: '1.2.0 added "a feature"' })).toBe(
      'This is the instruction.\n\n/model_led 1.2.0 added "a feature"',
    );
    expect(renderGeminiPrompt('Parse the command.', 'mycommand', 'arg1 "arg two"')).toBe('Parse the command.\n\n/mycommand arg1 "arg two"');
  });

  it('appends nothing without text, and keeps the prompt as written otherwise (argumentProcessor.test, appendToLastTextPart)', async () => {
    expect(renderGeminiPrompt('Parse the command.', 'mycommand', '')).toBe('Parse the command.');
    expect(renderGeminiPrompt('Parse the command.', 'mycommand', '  \n ')).toBe('Parse the command.');
    expect(await render('explain.toml', 'prompt = """\nExplain this.\n"""', { arguments: 'quickly' })).toBe(
      'Explain this.\n\n\n/explain quickly',
    );
  });

  it('gives {{args}} the words joined by single spaces, as parseSlashCommand splits them (commands.test: "extra whitespace")', () => {
    expect(renderGeminiPrompt('Show {{args}}.', 'list', '  some   data  ')).toBe('Show some data.');
    expect(renderGeminiPrompt('A {{args}} and {{args}}', 'x', 'b\nc')).toBe('A b c and b c');
    expect(renderGeminiPrompt('Keep {{ args }} as written: {{args}}', 'x', 'v')).toBe('Keep {{ args }} as written: v');
  });

  it('names the command as Gemini does: sanitised segments joined by ":" (FileCommandLoader.test)', async () => {
    expect(geminiCommandName('legacy:command.toml')).toBe('legacy_command');
    expect(geminiCommandName('test\twith\nnewlines.toml')).toBe('test_with_newlines');
    expect(geminiCommandName(`${'a'.repeat(60)}.toml`)).toBe(`${'a'.repeat(47)}...`);
    expect(await render('git/my commit.toml', 'prompt = "Commit."', { arguments: 'now' })).toBe('Commit.\n\n/git:my_commit now');
  });

  it('reports !{…} shell injections, braces counted, as not filled over MCP', () => {
    expect(shellInjections('Diff: !{git diff {{args}}}\nLog: !{git log --format={x}} !{git diff {{args}}}')).toEqual([
      '!{git diff {{args}}}',
      '!{git log --format={x}}',
    ]);
    expect(shellInjections('Unclosed !{ls')).toEqual([]);
    expect(parse('diff.toml', 'prompt = "Review !{git diff --staged}"').unfilled).toEqual(['!{git diff --staged}']);
  });

  it('describes the free text by what Gemini does with it', () => {
    expect(parse('a.toml', 'prompt = "Do {{args}}"').arguments[0]?.description).toBe('Free text, substituted for {{args}}');
    expect(parse('git/b.toml', 'prompt = "Do it"').arguments[0]?.description).toBe('Free text, appended as the typed command (/git:b …)');
  });
});
