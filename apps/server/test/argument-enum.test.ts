import { afterEach, describe, expect, it } from 'vitest';
import { promptFiles } from './fixtures.js';
import { cleanup, makeFolder, runCli, startStdio } from './harness.js';

afterEach(cleanup);

// review.md declares `language` with enum [python, typescript, rust].
const allowed = /"language" must be one of "python", "typescript" or "rust", got "cobol"/;

describe("a prompt argument's enum", () => {
  it('is enforced by render: the allowed values on stderr, a non-zero exit, nothing on stdout', async () => {
    const dir = await makeFolder(promptFiles);
    const refused = await runCli(['render', 'review', '--prompts', dir, '--arg', 'code=x = 1', '--arg', 'language=cobol']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(allowed);
    expect(refused.stderr).toContain('review.md');
    const close = await runCli(['render', 'review', '--prompts', dir, '--arg', 'code=x', '--arg', 'language=pyhton']);
    expect(close.stderr).toMatch(/got "pyhton" \(did you mean "python"\?\)/);
    const rendered = await runCli(['render', 'review', '--prompts', dir, '--arg', 'code=x = 1', '--arg', 'language=rust']);
    expect(rendered.code).toBe(0);
    expect(rendered.stdout).toContain('Review this rust code:');
  });

  it('is enforced by prompts/get: -32602 naming the argument and its allowed values', async () => {
    const dir = await makeFolder(promptFiles);
    const { client } = await startStdio(['--prompts', dir, '--no-watch']);
    const error = await client.getPrompt({ name: 'review', arguments: { code: 'x', language: 'cobol' } }).then(
      () => undefined,
      (caught: unknown) => caught as { code: number; message: string; data?: unknown },
    );
    expect(error?.code).toBe(-32602);
    expect(error?.message).toMatch(allowed);
    const rendered = await client.getPrompt({ name: 'review', arguments: { code: 'x', language: 'python' } });
    expect(JSON.stringify(rendered.messages)).toContain('Review this python code:');
  });
});
