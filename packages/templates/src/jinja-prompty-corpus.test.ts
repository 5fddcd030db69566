import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createJinjaEngine } from './jinja-engine.js';

/**
 * The Prompty files in fixtures/prompty, written as Prompty documents them, rendered by the Jinja
 * engine. Only the body is read here (after the frontmatter); splitting the output into messages at
 * its role lines is @promptyard/prompts' part.
 */
const bodyOf = (name: string): string => {
  const text = readFileSync(new URL(`../fixtures/prompty/${name}`, import.meta.url), 'utf8');
  const [, , ...body] = text.split(/^---$/m);
  return body.join('---').replace(/^\n/, '');
};

describe('the Prompty corpus through the Jinja engine', () => {
  const engine = createJinjaEngine();

  it('basic.prompty: the sample from Prompty’s docs', async () => {
    const template = engine.compile(bodyOf('basic.prompty'));
    expect(template.variables).toEqual(['firstName', 'lastName', 'question']);
    expect(await template.render({ firstName: 'Jane', lastName: 'Doe', question: 'Why?' })).toContain(
      'You are helping Jane Doe to find answers to their questions.\nUse their name to address them in your responses.\n\nuser:\nWhy?',
    );
  });

  it('support.prompty: a loop over JSON documents with loop.index, title, trim, default and for-else', async () => {
    const template = engine.compile(bodyOf('support.prompty'), { jsonArguments: ['customer', 'documentation'] });
    expect(template.variables).toEqual(['customer', 'documentation', 'question']);
    const documentation = JSON.stringify([
      { name: 'alpine tent', description: ' Two people. ' },
      { name: 'stove', description: 'Light' },
    ]);
    expect(await template.render({ customer: '{"firstName":"Sally"}', documentation, question: 'Which?' })).toBe(
      'system:\nYou are a helpful support assistant for Sally.\n\n# Documentation\n\n1. Alpine Tent: Two people.\n\n2. Stove: Light\n\n\nuser:\nWhich?\n',
    );
    expect(await template.render({ documentation: '[]', question: 'Which?' })).toContain(
      'for our customer.\n\n# Documentation\n\nNo documentation was found.\n',
    );
  });

  it('chat.prompty: a loop that writes role lines for the conversation so far', async () => {
    const template = engine.compile(bodyOf('chat.prompty'), { jsonArguments: ['history'] });
    const history = JSON.stringify([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
    ]);
    expect(await template.render({ history, question: 'Next?' })).toBe(
      'system:\nYou are a concise assistant.\n\n\nuser:\nHi\n\nassistant:\nHello!\n\n\nuser:\nNext?\n',
    );
  });

  it('study-plan.prompty: lower, upper, replace, range(), loop.last, set, macro, whitespace control and comments', async () => {
    const template = engine.compile(bodyOf('study-plan.prompty'), { jsonArguments: ['sessions'] });
    expect(template.variables).toEqual(['level', 'sessions', 'topic', 'keywords']);
    expect(await template.render({ topic: 'Rust Lifetimes', sessions: '3', level: 'beginner', keywords: 'a,b' })).toBe(
      '\n\n\nsystem:\nYou are a tutor for beginner learners.\n\nuser:\nPlan 3 sessions on rust lifetimes (RUST_LIFETIMES).\n- Session 1 of 3\n- Session 2 of 3\n- Session 3 of 3 (review)\nKeywords: a, b\n',
    );
    expect(await template.render({ topic: 'Go', sessions: '1' })).toContain(
      'tutor for curious learners.\n\nuser:\nPlan 1 sessions on go (GO).\n- Session 1 of 1 (review)\nKeywords: none',
    );
  });

  it('a text argument stays text where a JSON argument is parsed', async () => {
    const template = engine.compile('{{ n + 1 }}|{{ s }}', { jsonArguments: ['n'] });
    expect(await template.render({ n: '41', s: '[1]' })).toBe('42|[1]');
    expect(await engine.compile('{{ n }}', { jsonArguments: ['n'] }).render({ n: 'not json' })).toBe('not json');
  });
});
