import { describe, expect, it } from 'vitest';
import { parseFrontmatter } from './frontmatter.js';

const file = '/prompts/review.md';

const failure = (text: string): { message: string; data: unknown } => {
  try {
    parseFrontmatter(text, file);
  } catch (error) {
    return { message: (error as Error).message, data: (error as { data?: unknown }).data };
  }
  throw new Error('expected parseFrontmatter to throw');
};

describe('parseFrontmatter', () => {
  it('returns the whole text as the body when there is no frontmatter', () => {
    expect(parseFrontmatter('# Title\nBody\n', file)).toEqual({ data: {}, body: '# Title\nBody\n', bodyLine: 0 });
  });

  it('splits YAML frontmatter from the body and counts the lines before it', () => {
    const parsed = parseFrontmatter('---\ndescription: Review code\ntags: [a, b]\n---\nBody {{ x }}\n', file);
    expect(parsed).toEqual({ data: { description: 'Review code', tags: ['a', 'b'] }, body: 'Body {{ x }}\n', bodyLine: 4 });
  });

  it('accepts a BOM, CRLF line endings and a ... closing line', () => {
    const parsed = parseFrontmatter('\uFEFF---\r\ntitle: T\r\n...\r\nBody\r\n', file);
    expect(parsed).toEqual({ data: { title: 'T' }, body: 'Body\r\n', bodyLine: 3 });
  });

  it('treats empty frontmatter as an empty mapping', () => {
    expect(parseFrontmatter('---\n---\nBody', file)).toEqual({ data: {}, body: 'Body', bodyLine: 2 });
  });

  it('reads a first line of four or more dashes as a Markdown rule, not a fence', () => {
    expect(parseFrontmatter('----\ntext\n', file).bodyLine).toBe(0);
  });

  it.each(['---js', '---javascript', '---toml', '--- yaml'])('rejects a %s fence without evaluating it', (fence) => {
    const { message, data } = failure(`${fence}\nmodule.exports = { description: process.exit(1) }\n---\nBody`);
    expect(message).toContain(`${file}:1: only YAML frontmatter is supported`);
    expect(data).toMatchObject({ file, line: 1 });
  });

  it('rejects frontmatter that is never closed', () => {
    expect(failure('---\ndescription: x\nBody').message).toContain('never closed');
  });

  it('reports invalid YAML with the line in the file', () => {
    const { message, data } = failure('---\ndescription: ok\ndescription: twice\n---\nBody');
    expect(message).toBe(`${file}:3: invalid YAML frontmatter: "description" is given twice: keep one`);
    expect(data).toMatchObject({ line: 3 });
  });

  it.each([
    ['description: Review: the code', 2, 'put the value in quotes, as in description: "Review: the code"'],
    ['title: T\n\targuments: []', 3, 'YAML allows only spaces for indentation: indent with spaces'],
    [
      'description: [draft] Review',
      2,
      'a value starting with "[" means something else in YAML: put the value in quotes, as in description: "[draft] Review"',
    ],
    ['description: @here review', 2, 'put the value in quotes, as in description: "@here review"'],
  ])('says how to fix %j, at the line it is on', (yaml, line, advice) => {
    const { message, data } = failure(`---\n${yaml}\n---\nBody`);
    expect(message).toContain(advice);
    expect(data).toMatchObject({ line });
  });

  it('reports an unterminated quote at the line it opens, not where the parser gave up', () => {
    const { message, data } = failure('---\ntitle: T\ndescription: "Review the code\ntags: [a]\nother: x\n---\nBody');
    expect(message).toBe(
      `${file}:3: invalid YAML frontmatter: the " that opens this value is never closed: end the value with " on the same line`,
    );
    expect(data).toMatchObject({ line: 3 });
  });

  it('rejects frontmatter that is not a mapping', () => {
    expect(failure('---\n- a\n- b\n---\nBody').message).toContain('must be a mapping');
    expect(failure('---\njust text\n---\nBody').message).toContain('must be a mapping');
  });

  it('stops alias expansion bombs', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
    ];
    expect(failure(`---\n${bomb.join('\n')}\n---\nBody`).message).toContain('invalid YAML frontmatter');
  });

  it('never resolves language tags: !!js/function stays a string', () => {
    expect(parseFrontmatter('---\nf: !!js/function "return 1"\n---\n', file).data).toEqual({ f: 'return 1' });
  });
});
