/**
 * Gemini CLI `*.toml` custom commands, rendered the way Gemini CLI's FileCommandLoader renders them
 * (google-gemini/gemini-cli 0.56.0-nightly.20260806, commit 5411f113): see docs/guide/prompt-formats.md.
 */
import { tomlErrorLine, tomlErrorReason, tomlErrorSnippet } from '@promptyard/core';
import { parse as parseToml } from 'smol-toml';
import { fileError } from '../formats/file-error.js';
import { findKeyTypos } from '../formats/frontmatter-typos.js';
import { argumentValue, freeTextName } from './dialect.js';
import { extraFields, stringField, stripExtension, type NativeDefinition, type NativeFileInput } from './native-definition.js';

/** `SHORTHAND_ARGS_PLACEHOLDER` and `SHELL_INJECTION_TRIGGER` of Gemini's prompt processors. */
const argsPlaceholder = '{{args}}';
const shellTrigger = '!{';

/** Gemini's command name: each path segment sanitised (`[^a-zA-Z0-9_\-.]` → `_`, cut at 50), joined by `:`. */
export const geminiCommandName = (path: string): string =>
  stripExtension(path, '.toml')
    .split('/')
    .map((segment) => {
      const sanitized = segment.replace(/[^a-zA-Z0-9_\-.]/g, '_');
      return sanitized.length > 50 ? `${sanitized.slice(0, 47)}...` : sanitized;
    })
    .join(':');

/**
 * The prompt Gemini CLI submits for `/<command> <text>`. Its `parseSlashCommand` splits the typed
 * line on whitespace, so `{{args}}` receives the words joined by single spaces; without `{{args}}`,
 * the `DefaultArgumentProcessor` appends the whole typed command (`/name text`, trimmed) after a
 * blank line, and only when some text was typed.
 */
export const renderGeminiPrompt = (prompt: string, command: string, text: string): string => {
  const typed = text.trim();
  if (prompt.includes(argsPlaceholder)) return prompt.replaceAll(argsPlaceholder, typed.split(/\s+/).join(' '));
  return typed === '' ? prompt : `${prompt}\n\n/${command} ${typed}`;
};

/** Each `!{…}` shell injection (braces counted, as Gemini's `extractInjections` does), once, in order. */
export const shellInjections = (prompt: string): string[] => {
  const found: string[] = [];
  let start = prompt.indexOf(shellTrigger);
  while (start !== -1) {
    let depth = 0;
    let end = -1;
    for (let index = start + 1; index < prompt.length && end === -1; index += 1) {
      if (prompt[index] === '{') depth += 1;
      else if (prompt[index] === '}' && --depth === 0) end = index + 1;
    }
    if (end === -1) break;
    const injection = prompt.slice(start, end);
    if (!found.includes(injection)) found.push(injection);
    start = prompt.indexOf(shellTrigger, end);
  }
  return found;
};

const readToml = (input: NativeFileInput): Record<string, unknown> => {
  try {
    return parseToml(input.text);
  } catch (error) {
    // The parser's snippet, with a caret under the column, follows the reason.
    throw fileError(input.file, `invalid TOML: ${tomlErrorReason(error)}${tomlErrorSnippet(error)}`, {
      line: tomlErrorLine(error),
      cause: error,
    });
  }
};

/** Gemini CLI `*.toml` commands: `prompt` with `{{args}}` (or the typed command appended); `!{cmd}` stays literal. */
export const parseGeminiFormat = (input: NativeFileInput): NativeDefinition => {
  const data = readToml(input);
  const prompt = Object.hasOwn(data, 'prompt') ? data['prompt'] : undefined;
  if (typeof prompt !== 'string') throw fileError(input.file, 'a Gemini command needs a "prompt" string', { line: 1 });
  const description = stringField(data, 'description');
  const command = geminiCommandName(input.path);
  const render = async (args: Readonly<Record<string, string>>): Promise<string> =>
    renderGeminiPrompt(prompt, command, argumentValue(args, freeTextName) ?? '');
  return {
    // Gemini names nested commands with `:` (`git/commit.toml` → `git:commit`).
    id: stripExtension(input.path, '.toml').split('/').join(':'),
    ...(description === undefined ? {} : { description }),
    arguments: [
      {
        name: freeTextName,
        description: prompt.includes(argsPlaceholder)
          ? 'Free text, substituted for {{args}}'
          : `Free text, appended as the typed command (/${command} …)`,
        required: false,
      },
    ],
    declared: [],
    sections: [{ role: 'user', variables: [freeTextName], render }],
    body: prompt,
    references: 'at-brace',
    // Gemini runs `!{…}` in a shell and injects the output; over MCP the command reaches the model as written.
    unfilled: shellInjections(prompt),
    typos: findKeyTypos(data, 'gemini'),
    meta: extraFields(data, ['description', 'prompt']),
  };
};
