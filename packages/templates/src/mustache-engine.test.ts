import { describe, expect, it } from 'vitest';
import { createMustacheEngine } from './mustache-engine.js';
import { templateErrorOf } from './test-helpers.js';

describe('the Mustache engine', () => {
  const engine = createMustacheEngine();

  it('reads the arguments outside sections, section names and the names inside inverted sections', () => {
    const { variables } = engine.analyze(
      '{{! a comment }}{{greeting}} {{{raw}}} {{& amp}} {{customer.name}}\n{{#history}}{{role}}: {{content}}{{/history}}{{^history}}{{fallback}}{{/history}}{{.}}',
    );
    expect(variables).toEqual(['greeting', 'raw', 'amp', 'customer', 'history', 'fallback']);
  });

  it('passes plain text arguments as strings and typed ones as JSON', async () => {
    const template = engine.compile('{{#items}}[{{name}}]{{/items}} {{count}} {{text}}', { jsonArguments: ['items', 'count'] });
    expect(await template.render({ items: '[{"name":"a"},{"name":"b"}]', count: '2', text: '[1]' })).toBe('[a][b] 2 [1]');
    // A typed value that is not JSON stays text: a section over text renders once, in its context.
    expect(await template.render({ items: 'not json', count: 'x', text: '' })).toBe('[] x ');
  });

  it('names the line of a syntax error', async () => {
    const error = await templateErrorOf(() => engine.compile('line one\n{{#open}}\nnever closed', { file: '/p/a.prompty', lineOffset: 3 }));
    expect(error.message).toBe('/p/a.prompty:5: Unclosed section "open" (Mustache syntax error)');
  });

  it('renders a partial as empty text, as Prompty does (Mustache.render with no partials); one alone on its line takes the line', async () => {
    const template = engine.compile('Hello {{name}}\n  {{> footer}}\nBye{{> inline}}!\n{{#items}}- {{.}}{{> item}}\n{{/items}}', {
      file: '/p/a.prompty',
      jsonArguments: ['items'],
    });
    expect(template.variables).toEqual(['name', 'items']);
    expect(await template.render({ name: 'Ada', items: '["a","b"]' })).toBe('Hello Ada\nBye!\n- a\n- b\n');
  });

  it('stops a render whose output grows past the limit, and one that runs too long', async () => {
    const small = createMustacheEngine({ outputLimit: 1000 });
    const error = await templateErrorOf(() =>
      small.render(
        '{{#a}}{{#a}}{{#a}}xxxxxxxxxx{{/a}}{{/a}}{{/a}}',
        { a: JSON.stringify(Array.from({ length: 20 }, () => 1)) },
        { jsonArguments: ['a'] },
      ),
    );
    expect(error.message).toBe('the text grows past 1000 characters: render less');

    const slow = createMustacheEngine({ renderLimitMs: 20 });
    const list = JSON.stringify(Array.from({ length: 60 }, () => 1));
    const started = Date.now();
    const timeout = await templateErrorOf(() =>
      slow.render('{{#a}}{{#a}}{{#a}}{{#a}}{{/a}}{{/a}}{{/a}}{{/a}}', { a: list }, { jsonArguments: ['a'] }),
    );
    expect(timeout.message).toMatch(/^rendering took longer than 20 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses a template over the parse limit', async () => {
    const error = await templateErrorOf(() => createMustacheEngine({ parseLimit: 10 }).compile('x'.repeat(11)));
    expect(error.message).toBe('the template has 11 characters, over the limit of 10');
  });
});
