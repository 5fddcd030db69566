/**
 * Oracle cases for Codex custom prompts, ported from Codex itself:
 * - openai/codex codex-rs/tui/src/bottom_pane/prompt_args.rs at 09e67f209eb3144913ea6a688997e6778fa1eb39,
 *   its tests expand_arguments_basic, quoted_values_ok, invalid_arg_token_reports_error,
 *   missing_required_args_reports_error, escaped_placeholder_is_ignored, escaped_placeholder_remains_literal,
 *   and its expand_numeric_placeholders ($$ kept, $1…$9 empty when absent, $ARGUMENTS = words joined by a space);
 * - openai/codex docs/prompts.md at 035a941929429be28ac8a7211dc19ab0e695d96a ("Argument examples").
 */
import { isPromptyardError } from '@promptyard/core';
import { describe, expect, it } from 'vitest';
import { codexNamedPlaceholders, compileCodexDialect } from './codex-dialect.js';

const expand = (body: string, typed: string): string => compileCodexDialect(body).render(typed === '' ? {} : { arguments: typed });

const failure = (body: string, typed: string): { code: string; message: string } => {
  try {
    expand(body, typed);
  } catch (error) {
    if (isPromptyardError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected the expansion to fail');
};

describe('Codex custom prompts (oracle: prompt_args.rs tests and docs/prompts.md)', () => {
  it('expand_arguments_basic', () => {
    expect(expand('Review $USER changes on $BRANCH', 'USER=Alice BRANCH=main')).toBe('Review Alice changes on main');
  });

  it('quoted_values_ok', () => {
    expect(expand('Pair $USER with $BRANCH', 'USER="Alice Smith" BRANCH=dev-main')).toBe('Pair Alice Smith with dev-main');
  });

  it('invalid_arg_token_reports_error', () => {
    expect(failure('Review $USER changes', 'USER=Alice stray')).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('expected KEY=value'),
    });
  });

  it('missing_required_args_reports_error', () => {
    const { code, message } = failure('Review $USER changes on $BRANCH', 'USER=Alice');
    expect(code).toBe('MISSING_ARGUMENTS');
    expect(message.toLowerCase()).toContain('missing required argument');
    expect(message).toContain('BRANCH');
    expect(message).not.toContain('USER');
  });

  it('escaped_placeholder_is_ignored', () => {
    expect(codexNamedPlaceholders('literal $$USER')).toEqual([]);
    expect(codexNamedPlaceholders('literal $$USER and $REAL')).toEqual(['REAL']);
  });

  it('escaped_placeholder_remains_literal', () => {
    expect(expand('literal $$USER', '')).toBe('literal $$USER');
  });

  it('a named value given as an MCP argument counts, and named mode leaves $1 and $ARGUMENTS alone', () => {
    expect(compileCodexDialect('Review $USER ($1, $ARGUMENTS), $$HOME').render({ USER: 'Alice' })).toBe(
      'Review Alice ($1, $ARGUMENTS), $$HOME',
    );
  });

  it('named values come from KEY=value words (quotes group) or MCP arguments, a given argument winning', () => {
    const template = compileCodexDialect('Title: $PR_TITLE\nFiles: $FILES\nKeep $lower, $$HOME');
    expect(template.variables).toEqual(['PR_TITLE', 'FILES', 'arguments']);
    expect(template.render({ arguments: 'FILES="src/a.ts src/b.ts" PR_TITLE="Add hero"' })).toBe(
      'Title: Add hero\nFiles: src/a.ts src/b.ts\nKeep $lower, $$HOME',
    );
    expect(template.render({ arguments: 'PR_TITLE=from-text FILES=', PR_TITLE: 'explicit' })).toBe(
      'Title: explicit\nFiles: \nKeep $lower, $$HOME',
    );
  });

  it('docs/prompts.md: $ARGUMENTS is all arguments joined by a single space', () => {
    expect(expand('Fix issue #$ARGUMENTS following our coding standards.', '123 high-priority')).toBe(
      'Fix issue #123 high-priority following our coding standards.',
    );
    expect(expand('All: $ARGUMENTS', '"docs/My File.md"   two')).toBe('All: docs/My File.md two');
  });

  it('docs/prompts.md: $1…$9 are 1-based positional arguments', () => {
    expect(expand('Review PR #$1 with priority $2 and assign to $3', '456 high alice')).toBe(
      'Review PR #456 with priority high and assign to alice',
    );
  });

  it('expand_numeric_placeholders: $$ stays $$, a missing $N is empty, $0 and $ARGUMENTS[0] are not placeholders', () => {
    expect(expand('Price $$10 for $1; then $2; $0 $ARGUMENTS[0]', 'a')).toBe('Price $$10 for a; then ; $0 a[0]');
  });
});
