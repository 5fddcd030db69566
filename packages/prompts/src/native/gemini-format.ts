import { tomlErrorLine, tomlErrorReason, tomlErrorSnippet } from '@promptyard/core';
import { parse as parseToml } from 'smol-toml';
import { fileError } from '../formats/file-error.js';
import { findKeyTypos } from '../formats/frontmatter-typos.js';
import { freeTextName } from './dialect.js';
import { compileFreeTextDialect, geminiArgs } from './free-text-dialect.js';
import { extraFields, stringField, stripExtension, type NativeDefinition, type NativeFileInput } from './native-definition.js';

/** Gemini CLI `*.toml` commands: `prompt` with `{{args}}` (or the args appended); `!{cmd}` stays literal. */
export const parseGeminiFormat = (input: NativeFileInput): NativeDefinition => {
  let data: Record<string, unknown>;
  try {
    data = parseToml(input.text);
  } catch (error) {
    // The parser's snippet, with a caret under the column, follows the reason.
    throw fileError(input.file, `invalid TOML: ${tomlErrorReason(error)}${tomlErrorSnippet(error)}`, {
      line: tomlErrorLine(error),
      cause: error,
    });
  }
  const prompt = Object.hasOwn(data, 'prompt') ? data['prompt'] : undefined;
  if (typeof prompt !== 'string') throw fileError(input.file, 'a Gemini command needs a "prompt" string', { line: 1 });
  const template = compileFreeTextDialect(prompt, geminiArgs);
  const description = stringField(data, 'description');
  return {
    // Gemini names nested commands with `:` (`git/commit.toml` → `git:commit`).
    id: stripExtension(input.path, '.toml').split('/').join(':'),
    ...(description === undefined ? {} : { description }),
    arguments: [{ name: freeTextName, description: 'Free text, substituted for {{args}} (or appended)', required: false }],
    declared: [],
    sections: [{ role: 'user', variables: template.variables, render: async (args) => template.render(args) }],
    body: prompt,
    references: 'at-brace',
    typos: findKeyTypos(data, 'gemini'),
    meta: extraFields(data, ['description', 'prompt']),
  };
};
