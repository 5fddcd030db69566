/**
 * The built server against Claude Code's and Codex's own readings of `$` placeholders:
 * - anthropics/claude-code CHANGELOG.md at 5cfc0a1905ce0c0a9bd81d8a90fe6b62ff614357 (2.1.240): 2.1.19 ($0 is
 *   the first word), 2.1.210 (unmatched $1/$2 preserved verbatim); the docs' example "Migrate the $0 component…";
 *   the words as Claude Code 2.1.240 splits the typed text, as a shell command line (a leading NAME=value is no word);
 * - openai/codex codex-rs/tui/src/bottom_pane/prompt_args.rs at 09e67f209eb3144913ea6a688997e6778fa1eb39:
 *   tests expand_arguments_basic, escaped_placeholder_remains_literal, missing_required_args_reports_error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, makeFolder, messageText, startStdio } from './harness.js';

afterEach(cleanup);

describe('$ placeholders as Claude Code and Codex render them', () => {
  it('Claude keeps unmatched positions verbatim and counts from $0; Codex keeps $$ and needs every $NAME', async () => {
    const project = await makeFolder({
      '.claude/commands/pricing.md': "Pro costs $5.00 | Max costs $25.00. Run awk '{print $1}' on $0.\n",
      '.claude/commands/migrate.md': 'Migrate the $0 component from $1 to $2.\n',
      '.claude/commands/deploy.md': 'Deploy $0 to $1 ($ARGUMENTS).\n',
    });
    const codexHome = await makeFolder({
      'prompts/review.md': 'Review $USER changes on $BRANCH\n',
      'prompts/literal.md': 'literal $$USER and $1\n',
    });
    const { client } = await startStdio(['--no-watch'], {
      cwd: project,
      env: { PROMPTYARD_HOME: await makeFolder({}), CODEX_HOME: codexHome },
    });

    const pricing = await client.getPrompt({ name: 'claude:pricing', arguments: { arguments: 'data.txt' } });
    expect(messageText(pricing.messages[0])).toBe("Pro costs $5.00 | Max costs $25.00. Run awk '{print $1}' on data.txt.\n");
    const migrate = await client.getPrompt({ name: 'claude:migrate', arguments: { arguments: 'SearchBar React Vue' } });
    expect(messageText(migrate.messages[0])).toBe('Migrate the SearchBar component from React to Vue.\n');
    const deploy = await client.getPrompt({ name: 'claude:deploy', arguments: { arguments: 'ENV=prod api eu-west && notify' } });
    expect(messageText(deploy.messages[0])).toBe('Deploy api to eu-west (ENV=prod api eu-west && notify).\n');

    const review = await client.getPrompt({ name: 'codex:review', arguments: { arguments: 'USER=Alice BRANCH=main' } });
    expect(messageText(review.messages[0])).toBe('Review Alice changes on main\n');
    const missing = client.getPrompt({ name: 'codex:review', arguments: { arguments: 'USER=Alice' } });
    await expect(missing).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('missing required argument BRANCH') });
    const literal = await client.getPrompt({ name: 'codex:literal', arguments: { arguments: 'one' } });
    expect(messageText(literal.messages[0])).toBe('literal $$USER and one\n');
  });
});
