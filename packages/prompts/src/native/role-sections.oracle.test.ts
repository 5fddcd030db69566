/**
 * Oracle cases for Prompty's role lines, ported from Prompty's cross-runtime parse vectors:
 * microsoft/prompty schema/model/conformance/vectors/parse.tsp at 75e4d0e5 (every vector but
 * thread_nonce_expansion, which needs a thread input: see prompty-loader.oracle.test.ts), and its TypeScript parser
 * test runtime/typescript/packages/core/tests/parsers.test.ts ("is not vulnerable to ReDoS on
 * adversarial role attributes (#446)"). A vector's expected message is [role, content, metadata?].
 */
import { describe, expect, it } from 'vitest';
import { splitRoleSections } from './role-sections.js';

type Expected = [string, string] | [string, string, Record<string, unknown>];

const vectors: readonly [string, string, readonly Expected[]][] = [
  ['single_system', 'system:\nYou are helpful.', [['system', 'You are helpful.']]],
  [
    'system_user',
    'system:\nYou are helpful.\n\nuser:\nHello',
    [
      ['system', 'You are helpful.'],
      ['user', 'Hello'],
    ],
  ],
  [
    'system_user_assistant',
    'system:\nBe concise.\n\nuser:\nHi\n\nassistant:\nHello! How can I help?',
    [
      ['system', 'Be concise.'],
      ['user', 'Hi'],
      ['assistant', 'Hello! How can I help?'],
    ],
  ],
  [
    'multiline_content',
    'system:\nLine one.\nLine two.\nLine three.\n\nuser:\nQuestion',
    [
      ['system', 'Line one.\nLine two.\nLine three.'],
      ['user', 'Question'],
    ],
  ],
  [
    'multiple_user_turns',
    'system:\nHelper\n\nuser:\nFirst question\n\nassistant:\nFirst answer\n\nuser:\nSecond question',
    [
      ['system', 'Helper'],
      ['user', 'First question'],
      ['assistant', 'First answer'],
      ['user', 'Second question'],
    ],
  ],
  [
    'no_role_marker_defaults_to_system',
    'Just a plain message with no role marker',
    [['system', 'Just a plain message with no role marker']],
  ],
  [
    'content_trimmed',
    'system:\n  \n  You are helpful.  \n  \n\nuser:\n  Hello  ',
    [
      ['system', '  \n  You are helpful.  \n  '],
      ['user', '  Hello  '],
    ],
  ],
  [
    'empty_content',
    'system:\n\nuser:\nHello',
    [
      ['system', ''],
      ['user', 'Hello'],
    ],
  ],
  [
    'role_marker_at_line_start_only',
    'system:\nThe user: said hello\n\nuser:\nHi',
    [
      ['system', 'The user: said hello'],
      ['user', 'Hi'],
    ],
  ],
  [
    'markdown_in_content',
    'system:\n# Title\n\nSome **bold** text\n\n- item 1\n- item 2\n\nuser:\nHello',
    [
      ['system', '# Title\n\nSome **bold** text\n\n- item 1\n- item 2'],
      ['user', 'Hello'],
    ],
  ],
  [
    'consecutive_newlines_between_roles',
    'system:\nHelper\n\n\n\nuser:\nHi',
    [
      ['system', 'Helper'],
      ['user', 'Hi'],
    ],
  ],
  [
    'assistant_with_code_block',
    "assistant:\nHere is code:\n```python\nprint('hello')\n```\n\nuser:\nThanks",
    [
      ['assistant', "Here is code:\n```python\nprint('hello')\n```"],
      ['user', 'Thanks'],
    ],
  ],
  [
    'multiple_assistant_turns',
    "system:\nYou are helpful.\n\nuser:\nHi\n\nassistant:\nHello!\n\nuser:\nThanks\n\nassistant:\nYou're welcome!",
    [
      ['system', 'You are helpful.'],
      ['user', 'Hi'],
      ['assistant', 'Hello!'],
      ['user', 'Thanks'],
      ['assistant', "You're welcome!"],
    ],
  ],
  [
    'role_marker_colon_in_content',
    'system:\nHere is a tip: always be kind.\n\nuser:\nTime is 3:30pm',
    [
      ['system', 'Here is a tip: always be kind.'],
      ['user', 'Time is 3:30pm'],
    ],
  ],
  ['developer_role', 'developer:\nInternal instructions.', [['developer', 'Internal instructions.']]],
  ['role_with_quoted_attribute', 'user[name="Alice"]:\nHello!', [['user', 'Hello!', { name: 'Alice' }]]],
  ['role_with_multiple_unquoted_attributes', 'user[name=Bob, id=7]:\nHi', [['user', 'Hi', { name: 'Bob', id: 7 }]]],
  [
    'inline_markdown_image_preserved_as_text',
    'user:\nLook at this ![photo](https://example.com/img.png)',
    [['user', 'Look at this ![photo](https://example.com/img.png)']],
  ],
];

const messages = (rendered: string): Expected[] =>
  splitRoleSections(rendered).map(({ role, text, attributes }) => (attributes === undefined ? [role, text] : [role, text, attributes]));

describe("Prompty's parse vectors (parse.tsp at 75e4d0e5)", () => {
  for (const [name, rendered, expected] of vectors) {
    it(name, () => {
      expect(messages(rendered)).toEqual(expected);
    });
  }
});

describe("Prompty's TypeScript chat parser (parsers/prompty.ts at 75e4d0e5)", () => {
  it('is not vulnerable to ReDoS on adversarial role attributes (#446)', () => {
    const evil = `user[${'name=a'.repeat(24)}"`;
    const started = performance.now();
    const sections = messages(`${evil}:\nHi`);
    expect(performance.now() - started).toBeLessThan(1000);
    // The adversarial line is not a valid boundary, so it stays as content.
    expect(sections).toHaveLength(1);
  });

  it('reads `# role:` lines, any case, and types attributes as parseAttrs does (booleans, whole and decimal numbers)', () => {
    expect(messages('# System:\nBe brief.\nASSISTANT[ok=TRUE, score=0.5, n=12, id="x-1", nonce=abc]:\nDone')).toEqual([
      ['system', 'Be brief.'],
      ['assistant', 'Done', { ok: true, score: 0.5, n: 12, id: 'x-1' }],
    ]);
  });
});
