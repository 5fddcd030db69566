import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, makeFolder, startStdio } from './harness.js';

afterEach(cleanup);

type Message = { role: string; content: { type: string; text?: string } };
const pairs = (messages: readonly Message[]): [string, string | undefined][] =>
  messages.map((message) => [message.role, message.content.text]);

/**
 * The `prompty-extends-layout` case of packages/templates/fixtures/jinja2/cases.json, whose
 * expected text (golden.json) Python's jinja2 rendered with Prompty's environment, served from a
 * prompt folder: the body extends a base that includes a partial, and splits into messages.
 */
const files = {
  'summarise.prompty':
    "---\ndescription: Summarises\n---\n{% extends 'layout.jinja' %}\n{% block task %}Summarise {{ topic }}.{% endblock %}\n",
  'layout.jinja': "system:\n{% include 'partials/persona.jinja' %}\n\nuser:\n{% block task %}{% endblock %}\n",
  'partials/persona.jinja': "You are a careful {{ role | default('assistant') }}.",
};

describe('a .prompty file that extends a base and includes a partial', () => {
  it('renders them composed, and serves an edit of the base at the next get without a reload', async () => {
    const dir = await makeFolder(files);
    const { client } = await startStdio(['--no-watch', '--prompts', dir]);
    const { prompts } = await client.listPrompts();
    expect(prompts.find((prompt) => prompt.name === 'summarise')?.arguments?.map((argument) => argument.name)).toEqual(['topic', 'role']);

    const get = async () => pairs((await client.getPrompt({ name: 'summarise', arguments: { topic: 'Jinja' } })).messages as Message[]);
    // golden.json, prompty-extends-layout: "system:\nYou are a careful assistant.\n\nuser:\nSummarise Jinja.\n"
    expect(await get()).toEqual([
      ['user', 'You are a careful assistant.'],
      ['user', 'Summarise Jinja.'],
    ]);

    await writeFile(
      join(dir, 'layout.jinja'),
      "system:\n{% include 'partials/persona.jinja' %} Be brief.\n\nuser:\n{% block task %}{% endblock %}\n",
    );
    expect(await get()).toEqual([
      ['user', 'You are a careful assistant. Be brief.'],
      ['user', 'Summarise Jinja.'],
    ]);
  });
});
