import type { PromptArgument } from '@promptyard/core';
import { parseNativeFrontmatter } from './native-frontmatter.js';
import { freeTextName } from './dialect.js';
import { compileDollarDialect, hintNames, positionName } from './dollar-dialect.js';
import { extraFields, stringField, stripExtension, type NativeDefinition, type NativeFileInput } from './native-definition.js';
import { findUnfilled } from './unfilled.js';
import { speckitFilled } from './speckit-template.js';
import { findKeyTypos } from '../formats/frontmatter-typos.js';

export type DollarFormat = 'claude-commands' | 'claude-skills' | 'codex' | 'speckit';

const consumed = ['description', 'argument-hint', 'name', 'arguments'];

/** Claude's `${CLAUDE_SKILL_DIR}`, `${CLAUDE_PLUGIN_ROOT}`…: filled by Claude Code itself, never over MCP. */
const claudeVariable = /\$\{CLAUDE_[A-Z_]+\}/g;

const describePosition = (name: string, position: number): Pick<PromptArgument, 'title' | 'description'> => {
  const placeholders = `$${position + 1}, $ARGUMENTS[${position}]`;
  return {
    ...(name === positionName(position) ? { title: `Word ${position + 1}` } : {}),
    description: `Word ${position + 1} of the free text (${placeholders}); a value given here wins`,
  };
};

/** Claude Code commands and skills, Codex prompts and spec-kit templates: Markdown with `$ARGUMENTS`/`$1`. */
export const parseDollarFormat = (format: DollarFormat, input: NativeFileInput): NativeDefinition => {
  const { data, body } = speckitFilled(format, parseNativeFrontmatter(input.text, input.file), input.text);
  const hint = stringField(data, 'argument-hint');
  // Claude's `arguments: [issue, priority]` names the positions and enables `$issue`.
  const listed =
    Array.isArray(data['arguments']) && data['arguments'].every((item) => typeof item === 'string' && /^[A-Za-z_][\w-]*$/.test(item))
      ? (data['arguments'] as string[])
      : [];
  const template = compileDollarDialect(body, {
    positionalNames: listed.length > 0 ? listed : hintNames(hint),
    doubleDollarEscape: format === 'codex',
    namedTokens: listed.length > 0,
    upperCaseNames: format === 'codex',
  });
  const argumentsOf = template.variables.map((name): PromptArgument => {
    if (name === freeTextName) {
      return {
        name,
        description:
          hint === undefined ? 'Free text, as typed after the command ($ARGUMENTS)' : `Free text, as typed after the command: ${hint}`,
        required: false,
      };
    }
    const position = template.positions.get(name);
    if (position !== undefined) return { name, ...describePosition(name, position), required: false };
    return {
      name,
      description: `Named placeholder $${name}; also read from ${name}=value in the free text (a value given here wins)`,
      required: false,
    };
  });
  const path = stripExtension(input.path, '.md');
  const id = format === 'claude-skills' ? (stringField(data, 'name') ?? path.replace(/\/SKILL$/i, '')) : path;
  const description = stringField(data, 'description');
  const claude = format === 'claude-commands' || format === 'claude-skills';
  return {
    id,
    declared: listed,
    ...(description === undefined ? {} : { description }),
    arguments: argumentsOf,
    sections: [{ role: 'user', variables: template.variables, render: async (args) => template.render(args) }],
    body,
    ...(claude ? { references: 'at' as const } : {}),
    unfilled: claude ? findUnfilled(body, claudeVariable, () => false) : [],
    typos: findKeyTypos(data, 'dollar'),
    meta: { ...extraFields(data, consumed), ...(hint === undefined ? {} : { 'argument-hint': hint }) },
  };
};
