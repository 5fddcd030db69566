import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseSimpleYaml } from './simple-yaml.js';

const yamlOptions = { schema: 'core', uniqueKeys: true, maxAliasCount: 10, logLevel: 'silent' } as const;

/** What `yaml` makes of `source`, or 'error'. */
const reference = (source: string): unknown => {
  try {
    return parse(source, yamlOptions) ?? {};
  } catch {
    return 'error';
  }
};

/** A small deterministic PRNG, so a failure can be replayed. */
const random = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};

const scalars = [
  'word',
  'Two words',
  'Review, then fix',
  'true',
  'False',
  'NULL',
  'null',
  'yes',
  'no',
  '0',
  '12',
  '007',
  '1.5',
  '-3',
  '0x1f',
  '.inf',
  '~',
  '"quoted"',
  '"with \\" escape"',
  "'single'",
  "'it''s'",
  "'bad ' quote'",
  '[a, b]',
  '[]',
  '[a, [b]]',
  '[1, two]',
  '[a,]',
  'a: b',
  'http://x.y/z',
  'a #comment',
  'a# not comment',
  '#c',
  '&anchor x',
  '*alias',
  '!tag x',
  '|',
  '>',
  '- x',
  '{a: 1}',
  'b{c}',
  'émoji ✓',
  '"a" # c',
  "'x' y",
  'tab\there',
  '@at',
  '`tick`',
  '%pct',
  'x  ',
  'a  b',
  'Ends with:',
  '-',
  '"unterminated',
  'Bash(git:*)',
  'a:b',
  'a:b: c',
  'x:',
  '12:30',
  "['edit', 'search']",
  '["a", \'b\', c]',
  "['a, b']",
  "['it''s', b]",
  "[a, 'b' c]",
  "['']",
  '[a:b]',
  "['a]b']",
  '[\'#x\', "y #z"]',
];
const keys = [
  'description',
  'title',
  'name',
  'required',
  'tags',
  'dev.x/y',
  'a-b',
  '_k',
  'true',
  'null',
  '1',
  'my key',
  '"q"',
  '__proto__',
  'name',
];

const generate = (next: () => number): string => {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const lines: string[] = [];
  const emit = (indent: number, depth: number): void => {
    const count = 1 + Math.floor(next() * 3);
    const asSequence = next() < 0.25 && depth > 0;
    for (let index = 0; index < count; index++) {
      const pad = ' '.repeat(indent + (next() < 0.05 ? 1 : 0));
      const roll = next();
      if (asSequence) {
        if (roll < 0.5) lines.push(`${pad}- ${pick(scalars)}`);
        else {
          lines.push(`${pad}- ${pick(keys)}: ${pick(scalars)}`);
          if (next() < 0.7) lines.push(`${' '.repeat(indent + 2)}${pick(keys)}: ${pick(scalars)}`);
        }
      } else if (roll < 0.7 || depth > 2) {
        lines.push(`${pad}${pick(keys)}:${next() < 0.1 ? '' : ` ${pick(scalars)}`}`);
      } else {
        lines.push(`${pad}${pick(keys)}:`);
        emit(indent + (next() < 0.2 ? 0 : 2), depth + 1);
      }
      if (next() < 0.05) lines.push(pick(['', '   ', '# comment', '\tx: 1', '  continuation']));
    }
  };
  emit(0, 0);
  return lines.join(next() < 0.1 ? '\r\n' : '\n') + (next() < 0.5 ? '\n' : '');
};

describe('parseSimpleYaml', () => {
  it('parses typical prompt frontmatter', () => {
    const source = [
      'description: Review a change',
      "title: 'Code review'",
      'tags: [quality, review]',
      'tools: [\'edit\', "search"]',
      'allowed-tools: Bash(git:*), Read',
      'version: 3',
      'arguments:',
      '  - name: code',
      '    description: "The code to review"',
      '    required: true',
      '  - name: depth',
      '    enum: [shallow, deep]',
      'extra:',
      '- x',
      '',
    ].join('\n');
    const expected = {
      description: 'Review a change',
      title: 'Code review',
      tags: ['quality', 'review'],
      tools: ['edit', 'search'],
      'allowed-tools': 'Bash(git:*), Read',
      version: 3,
      arguments: [
        { name: 'code', description: 'The code to review', required: true },
        { name: 'depth', enum: ['shallow', 'deep'] },
      ],
      extra: ['x'],
    };
    expect(parseSimpleYaml(source)).toEqual(expected);
    expect(reference(source)).toEqual(expected);
  });

  it.each(['a: &x 1\nb: *x', 'a: !!str 1', 'a: |\n  text', 'a: 1\na: 2', 'a: b: c', 'a: 1.5', '- a', '"a": 1', 'a: x # c'])(
    'leaves %j to yaml',
    (source) => {
      expect(parseSimpleYaml(source)).toBeUndefined();
    },
  );

  it('agrees with yaml on every document it accepts (generated cases)', () => {
    const next = random(42);
    let accepted = 0;
    for (let index = 0; index < 20_000; index++) {
      const source = generate(next);
      const simple = parseSimpleYaml(source);
      if (simple === undefined) continue;
      accepted++;
      expect({ source, result: simple }).toEqual({ source, result: reference(source) });
    }
    expect(accepted).toBeGreaterThan(1000);
  });
});
