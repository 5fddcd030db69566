import type { PromptArgument } from '@promptyard/core';
import { parseNativeFrontmatter } from './native-frontmatter.js';
import { freeTextName } from './dialect.js';
import { compileCodexDialect } from './codex-dialect.js';
import { compileDollarDialect, hintNames, positionName } from './dollar-dialect.js';
import { extraFields, stringField, stripExtension, type NativeDefinition, type NativeFileInput } from './native-definition.js';
import { findUnfilled } from './unfilled.js';
import { speckitFill } from './speckit-template.js';
import { findKeyTypos } from '../formats/frontmatter-typos.js';

export type DollarFormat = 'claude-commands' | 'claude-skills' | 'codex' | 'speckit';

const consumed = ['description', 'argument-hint', 'name', 'arguments'];

/** Claude's `${CLAUDE_SKILL_DIR}`, `${CLAUDE_PLUGIN_ROOT}`…: filled by Claude Code itself, never over MCP. */
const claudeVariable = /\$\{CLAUDE_[A-Z_]+\}/g;

/** Codex counts `$1` as word 1; Claude Code (since 2.1.19) counts `$0`, `$ARGUMENTS[0]` as word 1. */
const describePosition = (format: DollarFormat, name: string, position: number): Pick<PromptArgument, 'title' | 'description'> => {
  const placeholders = format === 'codex' ? `$${position + 1}` : `$${position}, $ARGUMENTS[${position}]`;
  return {
    ...(name === positionName(position) ? { title: `Word ${position + 1}` } : {}),
    description: `Word ${position + 1} of the free text (${placeholders}); a value given here wins`,
  };
};

/**
 * Claude's `arguments: [issue, priority]` or `arguments: issue priority` names the positions and enables
 * `$issue`. As Claude Code reads the list: its texts, in order, leaving out any that is not text, is
 * blank or is a number (`[1, file]` names position 0 `file`); any other text is a name (`a.b`, `c+`).
 */
const listedNames = (value: unknown): string[] => {
  const names: unknown[] = typeof value === 'string' ? value.split(/\s+/) : Array.isArray(value) ? value : [];
  return names.filter((name): name is string => typeof name === 'string' && name.trim() !== '' && !/^\d+$/.test(name));
};

/** Claude Code commands and skills, Codex prompts and spec-kit templates: Markdown with `$ARGUMENTS`/`$1`. */
export const parseDollarFormat = (format: DollarFormat, input: NativeFileInput): NativeDefinition => {
  const { data, body: written } = parseNativeFrontmatter(input.text, input.file);
  const { body, meta: fillMeta } = format === 'speckit' ? speckitFill(input.text, written) : { body: written, meta: {} };
  const hint = stringField(data, 'argument-hint');
  const listed = format === 'codex' ? [] : listedNames(data['arguments']);
  const template =
    format === 'codex'
      ? compileCodexDialect(body, hintNames(hint))
      : compileDollarDialect(body, { positionalNames: listed.length > 0 ? listed : hintNames(hint), namedTokens: listed.length > 0 });
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
    if (position !== undefined) return { name, ...describePosition(format, name, position), required: false };
    return {
      name,
      description: `Named placeholder $${name}, needed here or as ${name}=value in the free text (a value given here wins)`,
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
    meta: { ...extraFields(data, consumed), ...(hint === undefined ? {} : { 'argument-hint': hint }), ...fillMeta },
  };
};
