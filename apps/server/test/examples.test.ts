import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, startStdio } from './harness.js';

afterEach(cleanup);

const examples = fileURLToPath(new URL('../../../examples/prompts', import.meta.url));

/** What a reader of a rendered example would trip over. */
const blemishes = (text: string): string[] => [
  ...(/\n\n\n/.test(text) ? ['a doubled blank line'] : []),
  ...(/\n\n$/.test(text) ? ['a trailing blank line'] : []),
  ...[...text.matchAll(/\ban ([b-df-hj-np-tv-z]\w*)/gi)].map((match) => `"an ${match[1] ?? ''}"`),
  ...[...text.matchAll(/\ba ([aeiou]\w*)/gi)]
    .filter((match) => !/^(one|use|uni|eu)/i.test(match[1] ?? ''))
    .map((match) => `"a ${match[1] ?? ''}"`),
];

describe('the bundled examples', () => {
  it('render cleanly with their defaults, and with every argument given', async () => {
    const { client } = await startStdio(['--prompts', examples, '--no-watch']);
    // An argument with an enum takes only its values: the refusal names them, and the first is given instead.
    const render = async (name: string, values: Record<string, string>) => {
      try {
        return await client.getPrompt({ name, arguments: values });
      } catch (error) {
        const allowed = (error as { data?: { allowed?: Record<string, string[]> } }).data?.allowed;
        if (allowed === undefined) throw error;
        const chosen = Object.fromEntries(Object.entries(allowed).map(([argument, choices]) => [argument, choices[0] ?? '']));
        return client.getPrompt({ name, arguments: { ...values, ...chosen } });
      }
    };
    const { prompts } = await client.listPrompts();
    expect(prompts.length).toBeGreaterThan(5);
    const found: string[] = [];
    for (const prompt of prompts) {
      const args = prompt.arguments ?? [];
      // The free text of a $ARGUMENTS prompt is its whole input: given, like a required argument.
      const needed = args.filter((argument) => argument.required === true || argument.name === 'arguments');
      // Defaults for the optional arguments, then every argument given ("X" also catches "an X").
      const variants = [
        Object.fromEntries(needed.map((argument) => [argument.name, 'X'])),
        Object.fromEntries(args.map((argument) => [argument.name, 'X'])),
      ];
      for (const values of variants) {
        const rendered = await render(prompt.name, values);
        for (const message of rendered.messages) {
          if (message.content.type !== 'text') continue;
          for (const blemish of blemishes(message.content.text)) found.push(`${prompt.name} ${JSON.stringify(values)}: ${blemish}`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
