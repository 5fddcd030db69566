import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { promptFiles } from './fixtures.js';
import { cleanup, eventually, makeFolder, startStdio, writeFiles } from './harness.js';

afterEach(cleanup);

const textOf = (result: { messages: { content: { type: string; text?: string } }[] }): string =>
  result.messages.map((message) => (message.content.type === 'text' ? message.content.text : '')).join('\n');

const rpcError = async (promise: Promise<unknown>): Promise<{ code: number; message: string }> => {
  try {
    await promise;
  } catch (error) {
    return error as { code: number; message: string };
  }
  throw new Error('expected the request to fail');
};

describe('promptyard-server over stdio', () => {
  it('lists nested prompts with descriptions, arguments and _meta', async () => {
    const dir = await makeFolder(promptFiles);
    const { client } = await startStdio(['--prompts', dir, '--no-watch']);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual([
      'decode',
      'git/commit',
      'git/deep/squash',
      'plan',
      'review',
      'writing:summarize',
    ]);
    const review = prompts.find((prompt) => prompt.name === 'review');
    expect(review?.description).toBe('Review code for bugs and style');
    expect(review?.arguments).toEqual([
      { name: 'code', description: 'The code to review', required: true },
      { name: 'language', description: 'Programming language', required: false },
      expect.objectContaining({ name: 'focus', required: false }),
    ]);
    expect(review?._meta).toMatchObject({ tags: ['quality'] });
    expect(prompts.find((prompt) => prompt.name === 'git/commit')?.description).toBe('Write a commit message');
    expect(prompts.find((prompt) => prompt.name === 'git/deep/squash')?.title).toBe('Squash commits');
    expect(prompts.find((prompt) => prompt.name === 'plan')?.arguments).toEqual([
      expect.objectContaining({ name: 'arguments', required: false }),
    ]);
  });

  // A 2025-era opening is served on the instance directly, anything else through the SDK's era entry.
  it.each([
    ['2025-11-25', {}],
    ['2026-07-28', { versionNegotiation: { mode: { pin: '2026-07-28' } } }],
  ] as const)('serves a client that opens at %s, requests it pipelines included', async (version, options) => {
    const dir = await makeFolder(promptFiles);
    const { client } = await startStdio(['--prompts', dir, '--no-watch'], { client: options });
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    const [listed, rendered] = await Promise.all([
      client.listPrompts(),
      client.getPrompt({ name: 'review', arguments: { code: 'x = 1' } }),
    ]);
    expect(listed.prompts.map((prompt) => prompt.name)).toContain('review');
    expect(textOf(rendered)).toContain('x = 1');
  });

  it('pages prompts/list with opaque cursors and rejects a forged cursor', async () => {
    const dir = await makeFolder(promptFiles);
    const { client } = await startStdio(['--prompts', dir, '--no-watch'], { env: { PROMPTYARD_PROMPTS_PAGE_SIZE: '2' } });
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listPrompts(cursor === undefined ? undefined : { cursor });
      if (cursor === undefined) {
        // Without a cursor the SDK client walks every page itself; re-read the first page raw.
        const first = await client.request({ method: 'prompts/list', params: {} });
        expect((first as { prompts: unknown[] }).prompts).toHaveLength(2);
        cursor = (first as { nextCursor?: string }).nextCursor;
        names.push(...(first as { prompts: { name: string }[] }).prompts.map((prompt) => prompt.name));
        expect(page.prompts).toHaveLength(6);
      } else {
        names.push(...page.prompts.map((prompt) => prompt.name));
        cursor = page.nextCursor;
      }
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(names).toEqual(['decode', 'git/commit', 'git/deep/squash', 'plan', 'review', 'writing:summarize']);
    const error = await rpcError(client.listPrompts({ cursor: 'not-a-cursor!' }));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/Invalid cursor/);
  });

  it('renders Liquid, defaults, $ARGUMENTS literally and twig library prompts', async () => {
    const dir = await makeFolder(promptFiles);
    const { client } = await startStdio(['--prompts', dir, '--no-watch']);

    const review = await client.getPrompt({ name: 'review', arguments: { code: 'let x = 1' } });
    expect(review.messages).toHaveLength(1);
    expect(review.messages[0]?.role).toBe('user');
    expect(textOf(review)).toBe('Review this typescript code:\n\nlet x = 1\n');

    const focused = await client.getPrompt({ name: 'review', arguments: { code: 'x', language: 'rust', focus: 'safety' } });
    expect(textOf(focused)).toBe('Review this rust code:\n\nx\nFocus on safety.');

    const squash = await client.getPrompt({ name: 'git/deep/squash' });
    expect(textOf(squash)).toBe('Squash the last 2 commits.');

    const plan = await client.getPrompt({ name: 'plan', arguments: { arguments: 'ship {{ it }} $& now --- {% raw %}' } });
    expect(textOf(plan)).toBe('Plan: ship {{ it }} $& now --- {% raw %}\n\nKeep {{ braces }} literal.');

    const summary = await client.getPrompt({ name: 'writing:summarize', arguments: { text: 'A long text.' } });
    expect(textOf(summary)).toBe('Summarise in 50 words:\n\nA long text.');
  });

  it('answers unknown prompts, missing arguments and template errors with -32602 and useful messages', async () => {
    const dir = await makeFolder(promptFiles);
    const { client } = await startStdio(['--prompts', dir, '--no-watch']);

    const unknown = await rpcError(client.getPrompt({ name: 'reveiw' }));
    expect(unknown.code).toBe(-32602);
    expect(unknown.message).toMatch(/Unknown prompt "reveiw"/);
    expect(unknown.message).toMatch(/Did you mean "review"/);

    const missing = await rpcError(client.getPrompt({ name: 'writing:summarize', arguments: {} }));
    expect(missing.code).toBe(-32602);
    expect(missing.message).toMatch(/missing required argument "text"/);

    const missingBoth = await rpcError(client.getPrompt({ name: 'review', arguments: {} }));
    expect(missingBoth.message).toMatch(/"code"/);

    const template = await rpcError(client.getPrompt({ name: 'decode', arguments: { value: '%E0%A4%A' } }));
    expect(template.code).toBe(-32602);
    expect(template.message).toContain(join(dir, 'decode.md'));
    expect(template.message).toMatch(/decode\.md:5/);
  });

  it('answers a plain get and list (served beside the SDK) exactly as the SDK serves them (with _meta)', async () => {
    const dir = await makeFolder(promptFiles);
    const { client } = await startStdio(['--prompts', dir, '--no-watch'], { env: { PROMPTYARD_PROMPTS_PAGE_SIZE: '2' } });
    const viaSdk = { _meta: { progressToken: 'p' } };
    const outcome = (promise: Promise<unknown>): Promise<unknown> =>
      promise.then(
        (result) => ({ result }),
        (error: { code: number; message: string; data?: unknown }) => ({ code: error.code, message: error.message, data: error.data }),
      );
    const requests = [
      { name: 'writing:summarize', arguments: { text: 'A long text.' } },
      { name: 'review', arguments: { code: 'x = 1', extra: 'ignored' } },
      { name: 'reveiw' },
      { name: 'writing:summarize', arguments: {} },
      { name: 'decode', arguments: { value: '%E0%A4%A' } },
    ];
    for (const params of requests) {
      const plain = await outcome(client.getPrompt(params));
      expect(plain, params.name).toEqual(await outcome(client.getPrompt({ ...params, ...viaSdk })));
    }
    expect(await outcome(client.getPrompt(requests[0] as { name: string }))).toMatchObject({
      result: { messages: [{ content: { text: 'Summarise in 50 words:\n\nA long text.' } }] },
    });

    // Every page of the listing, and a refused cursor, the same both ways.
    let cursor: string | undefined;
    do {
      const page = (await client.request({ method: 'prompts/list', params: cursor === undefined ? {} : { cursor } })) as {
        prompts: unknown[];
        nextCursor?: string;
      };
      expect(page).toEqual(
        await client.request({ method: 'prompts/list', params: { ...(cursor === undefined ? {} : { cursor }), ...viaSdk } }),
      );
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    const forged = (params: object) => outcome(client.request({ method: 'prompts/list', params: { cursor: 'forged!', ...params } }));
    expect(await forged({})).toEqual(await forged(viaSdk));
  });

  it('completes argument values from enum and default', async () => {
    const dir = await makeFolder(promptFiles);
    const { client } = await startStdio(['--prompts', dir, '--no-watch']);
    const all = await client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'language', value: '' } });
    expect(all.completion.values).toEqual(['python', 'typescript', 'rust']);
    const some = await client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'language', value: 'ty' } });
    expect(some.completion).toMatchObject({ values: ['typescript'], total: 1, hasMore: false });
    const none = await client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'code', value: 'a' } });
    expect(none.completion.values).toEqual([]);
    const unknown = await rpcError(client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: '' } }));
    expect(unknown.code).toBe(-32602);
  });

  it('skips oversized files, truncates long arguments and tells the client through log notifications', async () => {
    const dir = await makeFolder({ ...promptFiles, 'huge.md': `# Huge\n${'x'.repeat(2048)}` });
    const { client, stderr } = await startStdio(['--prompts', dir, '--no-watch'], {
      env: { PROMPTYARD_LIMITS_MAX_FILE_BYTES: '1024', PROMPTYARD_LIMITS_MAX_ARGUMENT_CHARS: '10', PROMPTYARD_SERVER_LOG_LEVEL: 'debug' },
    });
    const messages: unknown[] = [];
    client.setNotificationHandler('notifications/message', (notification) => {
      messages.push(notification.params);
    });
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).not.toContain('huge');
    await stderr.waitFor(/huge\.md/);

    const secret = 'SECRET-VALUE-0123456789';
    const result = await client.getPrompt({ name: 'writing:summarize', arguments: { text: secret } });
    expect(textOf(result)).toBe('Summarise in 50 words:\n\nSECRET-VAL');
    expect(textOf(result)).not.toContain('SECRET-VALUE');
    await eventually(
      async () => messages,
      (list) => list.some((entry) => JSON.stringify(entry).includes('argument truncated')),
    );
    await stderr.waitFor(/prompts\/get.*writing:summarize/);
    expect(stderr.text).not.toContain(secret.slice(0, 10));
  });

  it('hot-reloads edits, additions, deletions and keeps the last good version of a broken file', async () => {
    const dir = await makeFolder(promptFiles);
    const { client, stderr } = await startStdio(['--prompts', dir]);
    await stderr.waitFor(/watching/);
    let changes = 0;
    let notify: () => void = () => {};
    client.setNotificationHandler('notifications/prompts/list_changed', () => {
      changes += 1;
      notify();
    });
    const nextChange = (): Promise<void> => new Promise((resolve) => (notify = resolve));

    let changed = nextChange();
    await writeFile(join(dir, 'git/commit.md'), '# Write a conventional commit\n\nChanges: {{ diff }} in {{ scope }}');
    await changed;
    let { prompts } = await client.listPrompts();
    const commit = prompts.find((prompt) => prompt.name === 'git/commit');
    expect(commit?.description).toBe('Write a conventional commit');
    expect(commit?.arguments?.map((argument) => argument.name)).toEqual(['diff', 'scope']);

    changed = nextChange();
    // A folder created after start-up is watched too.
    await writeFiles(dir, { 'later/added.md': '---\ndescription: Freshly added\n---\nHello {{ name }}' });
    await changed;
    ({ prompts } = await client.listPrompts());
    expect(prompts.find((prompt) => prompt.name === 'later/added')?.description).toBe('Freshly added');

    changed = nextChange();
    await rm(join(dir, 'plan.md'));
    await changed;
    ({ prompts } = await client.listPrompts());
    expect(prompts.map((prompt) => prompt.name)).not.toContain('plan');

    // A broken edit keeps the last good version, and the error is logged.
    const before = await readFile(join(dir, 'review.md'), 'utf8');
    await writeFile(join(dir, 'review.md'), '---\ndescription: [unclosed\n---\nbody');
    await stderr.waitFor(/review\.md/);
    const stillGood = await client.getPrompt({ name: 'review', arguments: { code: 'y' } });
    expect(textOf(stillGood)).toContain('Review this typescript code');
    changed = nextChange();
    await writeFile(join(dir, 'review.md'), before.replace('Review code for bugs and style', 'Review code, fixed'));
    await changed;
    ({ prompts } = await client.listPrompts());
    expect(prompts.find((prompt) => prompt.name === 'review')?.description).toBe('Review code, fixed');
    expect(changes).toBeGreaterThanOrEqual(4);
  });
});
