/**
 * Oracle cases for Claude Code commands and skills, taken from Claude Code itself:
 * - anthropics/claude-code CHANGELOG.md at 5cfc0a1905ce0c0a9bd81d8a90fe6b62ff614357 (release 2.1.240):
 *   2.1.19 "Added shorthand `$0`, `$1`, etc." and "`$ARGUMENTS.0` → `$ARGUMENTS[0]`"; 2.1.139 "skill argument
 *   names containing regex metacharacters"; 2.1.210 "unmatched `$1`/`$2` positional placeholders … are now
 *   preserved verbatim"; 2.1.233 "argument values [no longer] re-expanded as template markers".
 * - the examples of https://code.claude.com/docs/en/skills ("Pass arguments to skills"), current with 2.1.2xx.
 * - how Claude Code 2.1.240 splits the typed text into the words `$N` counts (its substitution as shipped in
 *   the npm package @anthropic-ai/claude-code-linux-x64@2.1.240): the text is read as a shell command line and
 *   the words of its first command are taken, else the text split at whitespace; each case below is what it gave.
 *   A run on Claude Code 2.1.278 reported the same (dev.to/rulestack, "Claude Code skill arguments across 12
 *   runs": "a bare $HOME or $ARGUMENTS token typed as an argument vanished from the positional slots").
 * Before 2.1.19, `$1` was the first word; Claude Code now reads it as the second.
 */
import { describe, expect, it } from 'vitest';
import { compileDollarDialect } from './dollar-dialect.js';
import { parseDollarFormat } from './dollar-formats.js';
import type { NativeDefinition } from './native-definition.js';
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
    expect(render('A: $0, B: $1, all: $ARGUMENTS', '"$1" "$ARGUMENTS"')).toBe('A: $1, B: $ARGUMENTS, all: "$1" "$ARGUMENTS"');
    // Unquoted, `$ARGUMENTS` after the first word is a shell variable: no word, so `$1` has no value and stays.
    expect(render('A: $0, B: $1, all: $ARGUMENTS', '$1 $ARGUMENTS')).toBe('A: $1, B: $1, all: $1 $ARGUMENTS');
  });

  it('2.1.139: argument names with regex metacharacters substitute', () => {
    expect(render('Plan $a.b then $c+; keep $a-b', 'one two', ['a.b', 'c+'])).toBe('Plan one then two; keep $a-b');
  });

  it('the `arguments:` list as Claude Code reads it: its texts in order, numbers and blanks left out', async () => {
    const skill = (list: string): NativeDefinition =>
      parseDollarFormat('claude-skills', {
        text: `---\nname: plan\narguments: ${list}\n---\nPlan $a.b then $c+ for $file.`,
        file: '/x/plan/SKILL.md',
        path: 'plan/SKILL.md',
        jinja: testEngines.jinja,
      });
    const rendered = async (definition: NativeDefinition): Promise<unknown> =>
      (await definition.sections[0]?.render({ arguments: 'one two three' }))?.toString();
    expect(await rendered(skill('[a.b, c+, file]'))).toBe('Plan one then two for three.');
    expect(skill('[1, file, "", a.b]').arguments.map((argument) => argument.name)).toEqual(['a.b', 'file', 'arguments']);
    expect(await rendered(skill('[1, file, "", a.b]'))).toBe('Plan two then $c+ for one.');
  });

  describe('2.1.240: the words are those of the typed text read as a shell command line', () => {
    const words = '0=$0 1=$1 2=$2';

    it('a leading NAME=value, a keyword, a test or a redirection is not a word: the next word is $0', () => {
      expect(render(words, 'ENV=prod deploy api')).toBe('0=deploy 1=api 2=$2');
      expect(render(words, 'do it now')).toBe('0=it 1=now 2=$2');
      expect(render(words, '[WIP] fix login')).toBe('0=fix 1=login 2=$2');
      expect(render(words, '<in.txt summarise it')).toBe('0=summarise 1=it 2=$2');
    });

    it('a later word that is only a variable ($HOME, ${x}, $1) is left out, so the words after it move down', () => {
      expect(render(words, 'copy $HOME backup now')).toBe('0=copy 1=backup 2=now');
      expect(render(words, 'copy ${DIR} "$HOME" $HOME/x')).toBe('0=copy 1=$HOME 2=$HOME/x');
    });

    it('a comment, an operator or a command substitution ends the words; $ARGUMENTS stays the text as typed', () => {
      expect(render(`${words} all=$ARGUMENTS`, 'Fix issue #42 and #43')).toBe('0=Fix 1=issue 2=$2 all=Fix issue #42 and #43');
      expect(render(words, 'deploy to prod && notify')).toBe('0=deploy 1=to 2=prod');
      expect(render(words, 'add tests & docs')).toBe('0=add 1=tests 2=$2');
      expect(render(words, 'Use `npm test` now')).toBe('0=Use 1=$1 2=$2');
      expect(render(words, 'x $(date) y')).toBe('0=x 1=$1 2=$2');
    });

    it('an unclosed quote runs to the end; inside double quotes backslashes stay; elsewhere they escape', () => {
      expect(render(words, "don't stop now")).toBe("0=don't stop now 1=$1 2=$2");
      expect(render(words, '"say \\"hi\\"" a\\ b')).toBe('0=say \\"hi\\" 1=a b 2=$2');
      expect(render(words, 'a "b c"d ""')).toBe('0=a 1=b cd 2=');
    });

    it('with no command in it (a comment, only assignments, only redirections), the text is split at whitespace', () => {
      expect(render(words, '#123 high')).toBe('0=#123 1=high 2=$2');
      expect(render(words, 'A=1 B=2')).toBe('0=A=1 1=B=2 2=$2');
      expect(render(words, '<file> [mode]')).toBe('0=<file> 1=[mode] 2=$2');
    });

    it('named arguments take the same words; `$name` is followed by anything but a word character or `[`', () => {
      expect(render('Fix $issue-now on $branch[0]', 'ENV=ci 42 hotfix', ['issue', 'branch'])).toBe('Fix 42-now on $branch[0]');
    });
  });
});
