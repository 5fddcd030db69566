import type { PromptArgument } from '@promptyard/core';
import { parseNativeFrontmatter } from './native-frontmatter.js';
import { freeTextName } from './dialect.js';
import { compileDollarDialect, hintNames } from './dollar-dialect.js';
import { extraFields, stringField, stripExtension, type NativeDefinition, type NativeFileInput } from './native-definition.js';

export type DollarFormat = 'claude-commands' | 'claude-skills' | 'codex' | 'speckit';

const consumed = ['description', 'argument-hint', 'name', 'arguments'];

/** Claude Code commands and skills, Codex prompts and spec-kit templates: Markdown with `$ARGUMENTS`/`$1`. */
export const parseDollarFormat = (format: DollarFormat, input: NativeFileInput): NativeDefinition => {
  const { data, body } = parseNativeFrontmatter(input.text, input.file);
  const hint = stringField(data, 'argument-hint');
  // Claude's `arguments: [issue, priority]` names the positions and enables `$issue`.
  const listed = Array.isArray(data['arguments']) && data['arguments'].every((item) => typeof item === 'string' && /^[A-Za-z_][\w-]*$/.test(item)) ? (data['arguments'] as string[]) : [];
  const template = compileDollarDialect(body, {
    positionalNames: listed.length > 0 ? listed : hintNames(hint),
    doubleDollarEscape: format === 'codex',
    namedTokens: listed.length > 0,
  });
  const argumentsOf = template.variables.map(
    (name): PromptArgument =>
      name === freeTextName
        ? { name, description: hint === undefined ? 'Free text, as typed after the command ($ARGUMENTS)' : `Free text, as typed after the command: ${hint}`, required: false }
        : { name, description: `Positional argument ${name} (also taken from the free text's words)`, required: false },
  );
  const path = stripExtension(input.path, '.md');
  const id = format === 'claude-skills' ? (stringField(data, 'name') ?? path.replace(/\/SKILL$/i, '')) : path;
  const description = stringField(data, 'description');
  return {
    id,
    declared: listed,
    ...(description === undefined ? {} : { description }),
    arguments: argumentsOf,
    sections: [{ role: 'user', variables: template.variables, render: async (args) => template.render(args) }],
    body,
    ...(format === 'claude-commands' || format === 'claude-skills' ? { references: 'at' as const } : {}),
    meta: { ...extraFields(data, consumed), ...(hint === undefined ? {} : { 'argument-hint': hint }) },
  };
};
