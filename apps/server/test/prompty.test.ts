import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, connectHttp, eventually, makeFolder, startHttp, startStdio } from './harness.js';
import type { Era } from './harness.js';

afterEach(cleanup);

/** The Prompty corpus (written as Prompty documents it), in a --prompts folder beside Markdown prompts. */
const corpusDir = new URL('../../../packages/templates/fixtures/prompty/', import.meta.url);
const corpus = Object.fromEntries(
  readdirSync(corpusDir).map((name) => [`prompty/${name}`, readFileSync(new URL(name, corpusDir), 'utf8')]),
);
const files = {
  ...corpus,
  'review.md': '---\ndescription: Review code\n---\nReview {{ code | upcase }}',
  'shout.md': '---\nengine: jinja\n---\n{{ word | upper }}{% for i in range(2) %}!{% endfor %}',
  'whisper.md': '---\nengine: mustache\n---\n{{#quiet}}psst, {{/quiet}}{{ word }} & {{{ word }}}',
  'clash.md': 'From Markdown',
  'clash.prompty': 'user:\nFrom Prompty',
  'broken.prompty': '---\ndescription: Broken\n---\nuser:\nHello\n{{ name | shout }}',
  'runaway.prompty': 'user:\n{% for i in range(100000000) %}{{ i }}{% endfor %}',
};

type Message = { role: string; content: { type: string; text?: string } };
const pairs = (messages: readonly Message[]): [string, string | undefined][] =>
  messages.map((message) => [message.role, message.content.text]);

describe('.prompty files in a --prompts folder, rendered by Jinja', () => {
  for (const era of ['legacy', 'modern'] as Era[]) {
    it(`lists and renders them beside .md prompts at ${era === 'legacy' ? '2025-11-25' : '2026-07-28'}`, async () => {
      const dir = await makeFolder(files);
      const server = await startHttp(['--no-watch', '--prompts', dir]);
      const client = await connectHttp(server.url, { era });
      expect(client.getProtocolEra()).toBe(era);

      const { prompts } = await client.listPrompts();
      expect(prompts.map((prompt) => prompt.name).sort()).toEqual(
        [
          'clash',
          'prompty/basic',
          'prompty/chat',
          'prompty/context',
          'prompty/study-plan',
          'prompty/support',
          'review',
          'runaway',
          'shout',
          'whisper',
        ].sort(),
      );
      const plan = prompts.find((prompt) => prompt.name === 'prompty/study-plan');
      expect(plan).toMatchObject({ title: 'Study plan', description: 'Plans study sessions on a topic' });
      expect(plan?.arguments?.map((argument) => argument.name)).toEqual(['topic', 'sessions', 'level', 'keywords']);

      const basic = await client.getPrompt({ name: 'prompty/basic', arguments: { question: 'What is Jinja?' } });
      expect(pairs(basic.messages as Message[])).toEqual([
        [
          'user',
          'You are an AI assistant who helps people find information.\nAs the assistant, you answer questions briefly, succinctly,\nand in a personable manner using markdown.\n\n# Customer\nYou are helping Jane Doe to find answers to their questions.\nUse their name to address them in your responses.',
        ],
        ['user', 'What is Jinja?'],
      ]);

      const study = await client.getPrompt({
        name: 'prompty/study-plan',
        arguments: { topic: 'Rust Lifetimes', sessions: '2', keywords: 'borrow,scope' },
      });
      expect(pairs(study.messages as Message[])).toEqual([
        ['user', 'You are a tutor for curious learners.'],
        [
          'user',
          'Plan 2 sessions on rust lifetimes (RUST_LIFETIMES).\n- Session 1 of 2\n- Session 2 of 2 (review)\nKeywords: borrow, scope',
        ],
      ]);

      const history = JSON.stringify([
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello! How can I help?' },
      ]);
      const chat = await client.getPrompt({ name: 'prompty/chat', arguments: { history, question: 'Summarise.' } });
      expect(pairs(chat.messages as Message[])).toEqual([
        ['user', 'You are a concise assistant.'],
        ['user', 'Hi'],
        ['assistant', 'Hello! How can I help?'],
        ['user', 'Summarise.'],
      ]);

      const documentation = JSON.stringify([{ name: 'trail tent', description: 'Sleeps two.' }]);
      const support = await client.getPrompt({
        name: 'prompty/support',
        arguments: { customer: '{"firstName":"Sally"}', documentation, question: 'Which tent?' },
      });
      expect(pairs(support.messages as Message[])).toEqual([
        ['user', 'You are a helpful support assistant for Sally.\n\n# Documentation\n\n1. Trail Tent: Sleeps two.'],
        ['user', 'Which tent?'],
      ]);

      // v1 inputs read from a file, an object among them (the C# runtime's context.prompty): each sample
      // is its input's default; as Jinja2 renders it and Prompty's parser splits it.
      const context = await client.getPrompt({ name: 'prompty/context' });
      expect(pairs(context.messages as Message[])).toEqual([
        [
          'user',
          'You help people choose outdoor gear.\n\n# Products\n\ncatalog: 17\nitem: RainGuard Jacket\nprice: 110\n\ncatalog: 3\nitem: Summit Breeze Jacket\nprice: 120.5\n\n\n# Customer\nYou are helping Sally Davis.',
        ],
        ['user', 'Which jacket keeps me dry?'],
      ]);

      const review = await client.getPrompt({ name: 'review', arguments: { code: 'x' } });
      expect(pairs(review.messages as Message[])).toEqual([['user', 'Review X']]);
      const shout = await client.getPrompt({ name: 'shout', arguments: { word: 'hey' } });
      expect(pairs(shout.messages as Message[])).toEqual([['user', 'HEY!!']]);
      // Mustache as Prompty's runtime renders it: a section is skipped for an absent value, {{x}} is HTML-escaped.
      const whisper = await client.getPrompt({ name: 'whisper', arguments: { word: '<b>' } });
      expect(pairs(whisper.messages as Message[])).toEqual([['user', '&lt;b&gt; & <b>']]);
      const clash = await client.getPrompt({ name: 'clash' });
      expect(pairs(clash.messages as Message[])).toEqual([['user', 'From Markdown']]);

      const started = Date.now();
      const runaway = await client.getPrompt({ name: 'runaway' }).catch((caught: unknown) => caught as { code: number; message: string });
      expect(runaway).toMatchObject({
        message: expect.stringMatching(/runaway\.prompty:2: range\(\) of 100000000 numbers is over the limit/),
      });
      expect(Date.now() - started).toBeLessThan(2000);
      // The server is still there.
      expect((await client.getPrompt({ name: 'review', arguments: { code: 'y' } })).messages).toHaveLength(1);

      expect(server.stderr.text).toMatch(/duplicate prompt name; serving the first file by path name=clash/);
      expect(server.stderr.text).toMatch(
        /invalid prompt file; skipping it file=\S*broken\.prompty line=6 reason="unknown filter \\"shout\\"/,
      );
    });
  }

  it('hot reloads a .prompty file that is added and edited', async () => {
    const dir = await makeFolder({ 'review.md': 'Review' });
    const { client, stderr } = await startStdio(['--prompts', dir]);
    await stderr.waitFor(/watching/);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler('notifications/prompts/list_changed', () => resolve()));
    await writeFile(join(dir, 'greet.prompty'), '---\ndescription: Greets\n---\nuser:\nHello {{ name | title }}');
    await changed;
    // A save can be seen half-written first: wait for what the file says in the end.
    const render = () =>
      client.getPrompt({ name: 'greet', arguments: { name: 'ada lovelace' } }).then(
        (result) => pairs(result.messages as Message[]),
        () => [],
      );
    expect(await eventually(render, (messages) => messages.length > 0)).toEqual([['user', 'Hello Ada Lovelace']]);
    await writeFile(join(dir, 'greet.prompty'), '---\ndescription: Greets loudly\n---\nuser:\nHELLO {{ name | upper }}');
    expect(await eventually(render, (messages) => messages[0]?.[1]?.startsWith('HELLO') === true)).toEqual([
      ['user', 'HELLO ADA LOVELACE'],
    ]);
    expect((await client.listPrompts()).prompts.find((prompt) => prompt.name === 'greet')?.description).toBe('Greets loudly');
  });
});
