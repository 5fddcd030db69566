import { parse as parseToml } from 'smol-toml';
import { fileError } from '../formats/file-error.js';
import { freeTextName } from './dialect.js';
import { compileFreeTextDialect, geminiArgs } from './free-text-dialect.js';
import { extraFields, stringField, stripExtension, type NativeDefinition, type NativeFileInput } from './native-definition.js';

const tomlLine = (error: unknown): number | undefined =>
  typeof error === 'object' && error !== null && 'line' in error && typeof error.line === 'number' ? error.line : undefined;

/** Gemini CLI `*.toml` commands: `prompt` with `{{args}}` (or the args appended); `!{cmd}` stays literal. */
export const parseGeminiFormat = (input: NativeFileInput): NativeDefinition => {
  let data: Record<string, unknown>;
  try {
    data = parseToml(input.text);
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? 'invalid TOML') : 'invalid TOML';
    throw fileError(input.file, `invalid TOML: ${reason}`, { line: tomlLine(error), cause: error });
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
    meta: extraFields(data, ['description', 'prompt']),
  };
};
