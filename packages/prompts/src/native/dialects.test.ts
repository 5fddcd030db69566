import { describe, expect, it } from 'vitest';
import { splitWords } from './dialect.js';
import { compileDollarDialect, hintNames } from './dollar-dialect.js';
import { compileContinueBody } from './free-text-dialect.js';
import { compileInputDialect } from './input-dialect.js';
import { normalizePromptName } from './prompt-name.js';
import { splitRoleSections } from './role-sections.js';
import { findUnfilled, placeholderLine } from './unfilled.js';

describe('the $ARGUMENTS / $0 dialect (Claude Code)', () => {
  // Claude Code ≥ 2.1.19 counts $0 / $ARGUMENTS[0] as word 1 (it was $1 before); see claude-dialect.oracle.test.ts.
  it('fills $ARGUMENTS verbatim and $0, $1 … / $ARGUMENTS[N] from named arguments or the free text words', () => {
    const template = compileDollarDialect('Fix #$0 with priority $ARGUMENTS[1]. All: $ARGUMENTS. Cost \\$5, pid $$', {
      positionalNames: ['issue'],
    });
    expect(template.variables).toEqual(['issue', 'arg2', 'arguments']);
    expect(template.render({ arguments: '42 "very high"' })).toBe('Fix #42 with priority very high. All: 42 "very high". Cost $5, pid $$');
    expect(template.render({ issue: '7', arg2: 'low' })).toBe('Fix #7 with priority low. All: 7 low. Cost $5, pid $$');
  });

  it('names unnamed positions arg1, arg2 …, $ARGUMENTS[N] and $N being the (N+1)th word', () => {
    const template = compileDollarDialect('Third: $ARGUMENTS[2]; first: $0');
    expect(template.variables).toEqual(['arg3', 'arg1', 'arguments']);
    expect([...template.positions]).toEqual([
      ['arg3', 2],
      ['arg1', 0],
    ]);
    expect(template.render({ arguments: 'a b c' })).toBe('Third: c; first: a');
    expect(template.render({ arguments: 'a b c', arg3: 'given' })).toBe('Third: given; first: a');
  });

  it('keeps a positional placeholder with no value verbatim', () => {
    expect(compileDollarDialect('Third: $ARGUMENTS[2]; second: $1').render({ arguments: 'a' })).toBe('Third: $ARGUMENTS[2]; second: $1');
  });

  it('splits free text like a shell: quotes group and join the text around them', () => {
    expect(splitWords(`42 "very high" KEY="a b" it's`)).toEqual(['42', 'very high', 'KEY=a b', "it's"]);
  });

  it('never interprets $ patterns in values', () => {
    const template = compileDollarDialect('Price $$10 for $0');
    expect(template.render({ arg1: "$& $' $1" })).toBe("Price $$10 for $& $' $1");
  });

  it('keeps shell execution literal', () => {
    expect(compileDollarDialect('Status: !`git status` $ARGUMENTS').render({ arguments: 'x' })).toBe('Status: !`git status` x');
  });

  it('reads names from a bracketed argument-hint only', () => {
    expect(hintNames('[pr-number] [Priority Level]')).toEqual(['pr-number', 'priority-level']);
    expect(hintNames('<file>')).toEqual(['file']);
    expect(hintNames('add a feature description')).toEqual([]);
    expect(hintNames('FILE=<path> [FOCUS=<section>]')).toEqual([]);
  });
});

describe('other dialects', () => {
  it('Copilot ${input:name:placeholder} → arguments with descriptions; editor variables are arguments too', () => {
    const template = compileInputDialect('Form ${input:formName:MyForm} in ${workspaceFolder} for ${input:formName}; ${editorThing} stays');
    expect(template.variables).toEqual(['formName', 'workspaceFolder']);
    expect(template.inputs).toEqual(['formName']);
    expect(template.placeholders.get('formName')).toBe('MyForm');
    expect(template.render({ formName: 'Login', workspaceFolder: '/src/app' })).toBe(
      'Form Login in /src/app for Login; ${editorThing} stays',
    );
    expect(template.render({ formName: 'Login' })).toBe('Form Login in  for Login; ${editorThing} stays');
  });

  it('finds placeholders nothing fills outside code fences, with their line', () => {
    const body = 'Use ${selection} and ${editorThing}.\n```js\nconst s = `${name}`;\n```\n${editorThing} again, ${env:HOME}\n';
    const unknown = findUnfilled(body, /\$\{[^}\s]*\}/g, (placeholder) => compileInputDialect(placeholder).variables.length > 0);
    expect(unknown).toEqual(['${editorThing}', '${env:HOME}']);
    expect(placeholderLine(`---\nx: 1\n---\n${body}`, '${env:HOME}')).toBe(8);
    expect(placeholderLine(body, '${name}')).toBeUndefined();
  });

  // Continue's Handlebars pass escapes {{ input }} as Handlebars does; see continue-format.oracle.test.ts.
  it('Continue {{{ input }}} is substituted through Handlebars, else the text is appended', () => {
    expect(compileContinueBody('Explain this.\n', false).render({ arguments: 'quickly' })).toBe('Explain this.\n\n\nquickly');
    expect(compileContinueBody('Explain this.', false).render({})).toBe('Explain this.');
    expect(compileContinueBody('Q: {{{ input }}} {{ x }} {{input}}', false).render({ arguments: 'a<b' })).toBe('Q: a<b {{ x }} a&lt;b');
  });

  it('splits Prompty role lines wherever they stand, in code fences too, as Prompty’s parser does', () => {
    const sections = splitRoleSections('system:\nBe kind.\n\nuser:\n```yaml\nuser:\n```\n{{q}}\nassistant:\nOK');
    expect(sections.map((section) => [section.role, section.text])).toEqual([
      ['system', 'Be kind.'],
      ['user', '```yaml'],
      ['user', '```\n{{q}}'],
      ['assistant', 'OK'],
    ]);
  });

  it('normalises names to valid MCP tool names deterministically', () => {
    expect(normalizePromptName('claude:git/résumé draft')).toBe('claude:git/resume-draft');
    expect(normalizePromptName('a--b/c')).toBe('a--b/c');
    const long = normalizePromptName(`x:${'a'.repeat(100)}`);
    expect(long).toHaveLength(64);
    expect(long).toBe(normalizePromptName(`x:${'a'.repeat(100)}`));
    expect(long).not.toBe(normalizePromptName(`x:${'a'.repeat(101)}`));
    expect(normalizePromptName('日本語')).toMatch(/^prompt-[0-9a-f]{8}$/);
  });
});

describe('Claude skill arguments', () => {
  it('names positions with `arguments:` and substitutes $name', () => {
    const template = compileDollarDialect('Fix $issue at $priority ($0); keep $issues and $HOME', {
      positionalNames: ['issue', 'priority'],
      namedTokens: true,
    });
    expect(template.variables).toEqual(['issue', 'priority', 'arguments']);
    expect(template.render({ arguments: '12 high' })).toBe('Fix 12 at high (12); keep $issues and $HOME');
  });
});
