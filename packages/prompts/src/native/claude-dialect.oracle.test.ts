/**
 * Oracle cases for Claude Code commands and skills, taken from Claude Code itself:
 * - anthropics/claude-code CHANGELOG.md at 5cfc0a1905ce0c0a9bd81d8a90fe6b62ff614357 (release 2.1.240):
 *   2.1.19 "Added shorthand `$0`, `$1`, etc." and "`$ARGUMENTS.0` → `$ARGUMENTS[0]`"; 2.1.139 "skill argument
 *   names containing regex metacharacters"; 2.1.210 "unmatched `$1`/`$2` positional placeholders … are now
 *   preserved verbatim"; 2.1.233 "argument values [no longer] re-expanded as template markers".
 * - the examples of https://code.claude.com/docs/en/skills ("Pass arguments to skills"), current with 2.1.2xx.
 * Before 2.1.19, `$1` was the first word; Claude Code now reads it as the second.
 */
import { describe, expect, it } from 'vitest';
import { compileDollarDialect } from './dollar-dialect.js';
import { parseDollarFormat } from './dollar-formats.js';
import { testEngines } from '../test-helpers.js';

const render = (body: string, typed: string, names: readonly string[] = []): string =>
  compileDollarDialect(body, { positionalNames: names, namedTokens: names.length > 0 }).render({ arguments: typed });

describe('Claude Code placeholders (oracle: CHANGELOG 2.1.240 and the skills docs)', () => {
  it('docs: $ARGUMENTS is the whole string as typed', () => {
    expect(render('Fix GitHub issue $ARGUMENTS following our coding standards.', '42 high-priority')).toBe(
      'Fix GitHub issue 42 high-priority following our coding standards.',
    );
  });

  it('docs + 2.1.19: $N and $ARGUMENTS[N] are 0-based, split like a shell', () => {
    expect(render('Migrate the $0 component from $1 to $2.', 'SearchBar React Vue')).toBe(
      'Migrate the SearchBar component from React to Vue.',
    );
    expect(render('Migrate the $ARGUMENTS[0] component from $ARGUMENTS[1] to $ARGUMENTS[2].', '"search bar" React Vue')).toBe(
      'Migrate the search bar component from React to Vue.',
    );
  });

  it('docs: names in `arguments:` map to positions in order', () => {
    expect(render('Fix issue $issue on branch $branch.', '42 hotfix-auth', ['issue', 'branch'])).toBe(
      'Fix issue 42 on branch hotfix-auth.',
    );
  });

  it('docs: `arguments:` may be a space-separated string', () => {
    const definition = parseDollarFormat('claude-skills', {
      text: '---\nname: fix-and-branch\narguments: issue branch\n---\nFix issue $issue on branch $branch.',
      file: '/x/fix/SKILL.md',
      path: 'fix/SKILL.md',
      jinja: testEngines.jinja,
    });
    expect(definition.arguments.map((argument) => argument.name)).toEqual(['issue', 'branch', 'arguments']);
  });

  it('2.1.210: unmatched positional placeholders are preserved verbatim', () => {
    expect(render('Pro costs $5.00 | Max costs $25.00', '')).toBe('Pro costs $5.00 | Max costs $25.00');
    expect(render("Run awk '{print $1}' on $0", 'data.txt')).toBe("Run awk '{print $1}' on data.txt");
  });

  it('2.1.233: argument values are never re-expanded', () => {
    expect(render('A: $0, B: $1, all: $ARGUMENTS', '$1 $ARGUMENTS')).toBe('A: $1, B: $ARGUMENTS, all: $1 $ARGUMENTS');
  });

  it('2.1.139: argument names with regex metacharacters substitute', () => {
    expect(render('Plan $a.b then $c+; keep $a-b', 'one two', ['a.b', 'c+'])).toBe('Plan one then two; keep $a-b');
  });
});
