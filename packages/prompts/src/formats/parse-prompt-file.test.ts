import { describe, expect, it } from 'vitest';
import { parsePromptFile, type ParsePromptFileOptions } from './parse-prompt-file.js';
import { captureLogs, createFakeLiquid, testEngines } from '../test-helpers.js';

const file = '/prompts/code/review.md';

const parse = (text: string, extra: Partial<ParsePromptFileOptions> = {}) =>
  parsePromptFile({ text, file, name: 'code/review', source: 'code/review.md', engines: testEngines, ...extra });

const reasonOf = (text: string): string => {
  try {
    parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected parsePromptFile to throw');
};

describe('parsePromptFile', () => {
  it('reads the known frontmatter keys and passes the others through as meta', () => {
    const entry = parse(
      [
        '---',
        'title: Code review',
        'description: Review a change',
        'tags: [quality]',
        'model: fast',
        'arguments:',
        '  - name: code',
        '    description: The code to review',
        '    required: true',
        '  - name: depth',
        '    default: 2',
        '    enum: ["1", "2", "3"]',
        '---',
        'Review {{ code }} at depth {{ depth }} for {{ audience }}.',
      ].join('\n'),
    );
    expect(entry).toMatchObject({
      name: 'code/review',
      title: 'Code review',
      description: 'Review a change',
      origin: { file, line: 1 },
      meta: { tags: ['quality'], model: 'fast', 'dev.promptyard/source': 'code/review.md' },
    });
    expect(entry.arguments).toEqual([
      { name: 'code', description: 'The code to review', required: true },
      { name: 'depth', required: false, default: '2', enum: ['1', '2', '3'] },
      { name: 'audience', description: 'Template variable "audience"', required: false },
    ]);
  });

  it('renders the compiled template as one user message', async () => {
    const entry = parse('Hello {{ who }}!');
    expect(await entry.render({ who: 'team' })).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Hello team!' } }],
    });
  });

  it('derives the description from the body when the frontmatter has none', () => {
    expect(parse('---\ntitle: T\n---\n\n# Review the code\n').description).toBe('Review the code');
    expect(parse('').description).toBe('Prompt code/review');
  });

  it('selects the $ARGUMENTS engine and its single free-text argument', async () => {
    const entry = parse('Fix issue $ARGUMENTS now');
    expect(entry.arguments).toEqual([
      { name: 'arguments', description: 'Free-text arguments, substituted for $ARGUMENTS', required: false },
    ]);
    expect((await entry.render({ arguments: '#42' })).messages[0]?.content).toEqual({ type: 'text', text: 'Fix issue #42 now' });
  });

  it('keeps a declared arguments argument instead of the default one', () => {
    const entry = parse('---\narguments:\n  - name: arguments\n    required: true\n---\nDo $ARGUMENTS');
    expect(entry.arguments).toEqual([{ name: 'arguments', required: true }]);
  });

  it('uses the engine named in the frontmatter', async () => {
    const entry = parse('---\nengine: plain\n---\nKeep {{ this }} and $ARGUMENTS');
    expect(entry.arguments).toEqual([]);
    expect((await entry.render({})).messages[0]?.content).toMatchObject({ text: 'Keep {{ this }} and $ARGUMENTS' });
  });

  it('passes the file and the body line to the engine', () => {
    const seen: unknown[] = [];
    const liquid = createFakeLiquid();
    const spy = { ...liquid, compile: (source: string, options?: object) => (seen.push(options), liquid.compile(source)) };
    parse('---\ntitle: T\n---\nBody', { engines: { ...testEngines, liquid: spy } });
    expect(seen).toEqual([{ file, lineOffset: 3 }]);
  });

  it('logs declared arguments the template never uses at debug level', () => {
    const logs = captureLogs();
    parse('---\narguments:\n  - name: unused\n---\nNo variables', { logger: logs.logger });
    expect(logs.records).toMatchObject([{ level: 'debug', fields: { file, argument: 'unused' } }]);
  });

  it('uses the library engine, declarations and description for library prompts', async () => {
    const entry = parse('Commit {{ diff }} {{ extra }}', {
      name: 'git:commit',
      library: {
        engine: createFakeLiquid('liquid', '[lib] '),
        description: 'Write a commit message',
        arguments: [{ name: 'diff', description: 'The diff', required: true }],
      },
    });
    expect(entry.description).toBe('Write a commit message');
    expect(entry.arguments.map((argument) => [argument.name, argument.required])).toEqual([
      ['diff', true],
      ['extra', false],
    ]);
    expect((await entry.render({ diff: 'D' })).messages[0]?.content).toMatchObject({ text: '[lib] Commit D ' });
  });

  it.each([
    ['description: 3', 'review.md:2: frontmatter: key "description" must be a string, not the number 3'],
    ['title: [a]', 'frontmatter: key "title" must be a string, not a list'],
    ['arguments: code', 'key "arguments" must be a list of mappings such as "- name: topic", not a string'],
    ['arguments:\n  - code', 'arguments[0] must be a mapping such as "- name: topic", not a string'],
    ['arguments:\n  - description: x', 'arguments[0].name must be a non-empty string, not nothing'],
    ['arguments:\n  - name: a\n    required: "yes"', 'arguments[0].required must be true or false, not a string'],
    [
      'arguments:\n  - name: a\n    type: string',
      'arguments[0] has an unknown key "type"; allowed keys: name, title, description, required, default, enum',
    ],
    ['arguments:\n  - name: a\n    default: [1]', 'arguments[0].default must be a string, number or boolean, not a list'],
    ['arguments:\n  - name: a\n    enum: [1, 2]', 'arguments[0].enum must be a non-empty list of strings'],
    ['arguments:\n  - name: a\n    enum: [x]\n    default: y', 'arguments[0].default "y" is not one of its enum values: x'],
    ['arguments:\n  - name: a\n  - name: a', 'key "arguments" declares "a" twice'],
    ['engine: mustache', 'review.md:2: frontmatter: engine "mustache" is unknown; known engines: liquid, jinja, arguments, plain'],
  ])('rejects %j', (frontmatter, reason) => {
    expect(reasonOf(`---\n${frontmatter}\n---\nBody`)).toContain(reason);
  });

  it('reports a template that does not compile', () => {
    expect(reasonOf('Hello {{ broken')).toContain(`${file}: unclosed {{ tag`);
  });
});
