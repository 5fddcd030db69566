/**
 * Oracle cases for the Mustache engine:
 * - the Mustache spec's own cases (mustache/spec specs/*.json at 9cb20c3, copied with their names into
 *   fixtures/mustache/spec-cases.json; its `_source` says which were left out and why);
 * - Prompty's render vectors for Mustache (microsoft/prompty schema/model/conformance/vectors/render.tsp
 *   at 75e4d0e5: mustache_simple, mustache_section, mustache_inverted, mustache_loop), whose expected
 *   text is what Prompty's renderers produce; Prompty's TypeScript renderer is `Mustache.render` of
 *   npm mustache 4.2 (runtime/typescript/packages/core/src/renderers/mustache.ts), so `{{x}}` is HTML-escaped.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Mustache from 'mustache';
import { describe, expect, it } from 'vitest';
import { createMustacheEngine } from './mustache-engine.js';

interface SpecCase {
  readonly file: string;
  readonly name: string;
  readonly template: string;
  readonly data: Readonly<Record<string, unknown>>;
  readonly expected: string;
}

const spec = JSON.parse(readFileSync(new URL('../fixtures/mustache/spec-cases.json', import.meta.url), 'utf8')) as {
  readonly cases: readonly SpecCase[];
};

const engine = createMustacheEngine();

/** Every value passed as a typed (JSON) argument, as Prompty passes its inputs' values. */
const renderJson = (template: string, data: Readonly<Record<string, unknown>>): Promise<string> => {
  const args = Object.fromEntries(Object.entries(data).map(([name, value]) => [name, JSON.stringify(value)]));
  return engine.render(template, args, { jsonArguments: Object.keys(args) });
};

describe('the Mustache spec (mustache/spec at 9cb20c3)', () => {
  for (const { file, name, template, data, expected } of spec.cases) {
    it(`${file}: ${name}`, async () => {
      expect(await renderJson(template, data)).toBe(expected);
    });
  }
});

describe("Prompty's Mustache render vectors (render.tsp at 75e4d0e5)", () => {
  it('mustache_simple', async () => {
    expect(await renderJson('Hello {{name}}!', { name: 'World' })).toBe('Hello World!');
  });

  it('mustache_section', async () => {
    expect(await renderJson('{{#show}}Visible{{/show}}', { show: true })).toBe('Visible');
  });

  it('mustache_inverted', async () => {
    expect(await renderJson('{{^show}}Hidden{{/show}}', { show: false })).toBe('Hidden');
  });

  it('mustache_loop', async () => {
    expect(await renderJson('{{#items}}{{.}} {{/items}}', { items: ['a', 'b', 'c'] })).toBe('a b c ');
  });
});

/** Prompty's TypeScript renderer, as it calls the library: `Mustache.render(template, inputs)`. */
const promptyRender = (template: string, inputs: Readonly<Record<string, unknown>>): string =>
  (createRequire(import.meta.url)('mustache') as typeof Mustache).render(template, inputs);

describe("Prompty's TypeScript Mustache renderer, run on Prompty-style templates", () => {
  const templates: readonly [string, string, Readonly<Record<string, unknown>>][] = [
    ['escapes HTML, quotes, slashes, backticks and = in {{x}}', 'user:\n{{question}}', { question: `Is <b> & "a" = 'b' / \`c\`?` }],
    ['leaves {{{x}}} and {{& x}} as given', 'user:\n{{{question}}} {{& question}}', { question: '<b>&</b>' }],
    [
      'loops over a chat history',
      'system:\nBe brief.\n{{#chat_history}}\n{{role}}:\n{{content}}\n{{/chat_history}}\nuser:\n{{question}}',
      {
        chat_history: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
        ],
        question: 'Bye?',
      },
    ],
    ['numbers and booleans', '{{count}} items{{#urgent}}, urgent{{/urgent}}{{^urgent}}, whenever{{/urgent}}', { count: 3, urgent: false }],
    ['dotted names and a missing value', '{{customer.firstName}} {{customer.lastName}}{{missing}}!', { customer: { firstName: 'Sally' } }],
    ['set delimiters', '{{=<% %>=}}<% name %> {{literal}}', { name: 'Ada' }],
  ];
  for (const [title, template, inputs] of templates) {
    it(title, async () => {
      expect(await renderJson(template, inputs)).toBe(promptyRender(template, inputs));
    });
  }
});
