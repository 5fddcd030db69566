/**
 * The built server reads Prompty files as Prompty does (microsoft/prompty at 75e4d0e5): a Mustache
 * template rendered as its TypeScript runtime renders it (`Mustache.render` of mustache 4.2, so `{{x}}`
 * is HTML-escaped), a `${file:…}` frontmatter value read in by the loader, a v1 list input
 * (`chat_history: []`) taking a JSON list, and a role line's attributes (`user[name="Alice"]:`)
 * kept with its message, as Prompty's chat parser keeps them in the message's metadata. A Mustache
 * partial renders as empty text, as `Mustache.render` given no partials renders it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, makeFolder, runCli, startStdio } from './harness.js';

afterEach(cleanup);

const project: Record<string, string> = {
  'prompts/chat.prompty': [
    '---',
    'name: Chat',
    'description: ${file:chat-description.txt}',
    'template:',
    '  format: mustache',
    '  parser: prompty',
    'inputs:',
    '  persona: a tutor',
    '  chat_history: []',
    '  question: What is 1 + 1?',
    '---',
    'system:',
    'You are {{persona}} & brief.',
    '{{#chat_history}}',
    '{{role}}:',
    '{{content}}',
    '{{/chat_history}}',
    'user[name="Alice", turn=3]:',
    '{{question}}',
  ].join('\n'),
  'prompts/chat-description.txt': 'Chats with a history\n',
  'prompts/keyed.prompty': '---\nmodel:\n  connection:\n    apiKey: ${env:OPENAI_API_KEY}\n---\nuser:\nHi',
  'prompts/signed.prompty': '---\ntemplate: mustache\n---\nuser:\nHi {{name}}.\n{{> signature}}\nBye{{> footer}}.',
  // Prompty's Python runtime would read this from its working directory; the others never read it.
  'signature.mustache': 'Ada',
};

describe('Prompty files as Prompty reads them', () => {
  it('renders Mustache, reads ${file:…} values, takes a JSON list for a v1 list input and keeps role-line attributes', async () => {
    const folder = await makeFolder(project);
    const home = await makeFolder({});
    const { client } = await startStdio(['--no-watch'], { cwd: folder, env: { PROMPTYARD_HOME: home } });

    const { prompts } = await client.listPrompts();
    const chat = prompts.find((prompt) => prompt.name === 'prompty:prompts/chat');
    expect(chat).toMatchObject({ title: 'Chat', description: 'Chats with a history' });
    expect(chat?.arguments?.map((argument) => [argument.name, argument.required])).toEqual([
      ['persona', false],
      ['chat_history', false],
      ['question', false],
    ]);

    const history = JSON.stringify([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello! Ask away.' },
    ]);
    const result = await client.getPrompt({
      name: 'prompty:prompts/chat',
      arguments: { persona: 'Ada', chat_history: history, question: 'Is 1 < 2?' },
    });
    expect(result.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'You are Ada & brief.' } },
      { role: 'user', content: { type: 'text', text: 'Hi' } },
      { role: 'assistant', content: { type: 'text', text: 'Hello! Ask away.' } },
      {
        role: 'user',
        content: { type: 'text', text: 'Is 1 &lt; 2?', _meta: { 'dev.promptyard/role-attributes': { name: 'Alice', turn: 3 } } },
      },
    ]);
    // The list input's default, an empty list, renders no history.
    const first = await client.getPrompt({ name: 'prompty:prompts/chat', arguments: {} });
    expect(first.messages.map((message) => message.content)).toMatchObject([
      { text: 'You are a tutor & brief.' },
      { text: 'What is 1 + 1?' },
    ]);
  });

  it('validate warns that ${env:…} values are not served', async () => {
    const folder = await makeFolder(project);
    const home = await makeFolder({});
    const result = await runCli(['validate'], { cwd: folder, env: { PROMPTYARD_HOME: home, OPENAI_API_KEY: 'sk-secret' } });
    expect(result.stdout).toMatch(
      /^prompts\/keyed\.prompty:2: warning: \$\{env:OPENAI_API_KEY\} \(frontmatter key "model\.connection\.apiKey"\) is not served/m,
    );
    expect(result.stdout).not.toContain('sk-secret');
  });

  it('validate lists the same warning for a Prompty file in a --prompts folder', async () => {
    const folder = await makeFolder(project);
    const result = await runCli(['validate', '--prompts', `${folder}/prompts`], { cwd: folder, env: { OPENAI_API_KEY: 'sk-secret' } });
    expect(result.stdout).toMatch(
      /keyed\.prompty:2: warning: \$\{env:OPENAI_API_KEY\} \(frontmatter key "model\.connection\.apiKey"\) is not served/,
    );
    expect(result.stdout).not.toContain('sk-secret');
  });

  it('renders a Mustache partial as empty text, and validate says so at its line', async () => {
    const folder = await makeFolder(project);
    const home = await makeFolder({});
    const { client } = await startStdio(['--no-watch'], { cwd: folder, env: { PROMPTYARD_HOME: home } });
    const signed = await client.getPrompt({ name: 'prompty:prompts/signed', arguments: { name: 'Bo' } });
    expect(signed.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hi Bo.\nBye.' } }]);

    const result = await runCli(['validate', '--prompts', `${folder}/prompts`], { cwd: folder, env: {} });
    expect(result.stdout).toMatch(/signed\.prompty:6: warning: Mustache partial \{\{> signature\}\} renders as empty text/);
    expect(result.stdout).toMatch(/signed\.prompty:7: warning: Mustache partial \{\{> footer\}\} renders as empty text/);
  });
});
