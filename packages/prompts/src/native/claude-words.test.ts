import { describe, expect, it } from 'vitest';
import { claudeWords } from './claude-words.js';

/** Each line's words as Claude Code 2.1.240 split them (see claude-dialect.oracle.test.ts for the source). */
const cases: readonly [string, string[]][] = [
  ['SearchBar React Vue', ['SearchBar', 'React', 'Vue']],
  ['"search bar" React Vue', ['search bar', 'React', 'Vue']],
  ['a "b c"d ""', ['a', 'b cd', '']],
  ["don't stop", ["don't stop"]],
  ['"say \\"hi\\"" a\\ b', ['say \\"hi\\"', 'a b']],
  ['ENV=prod deploy api', ['deploy', 'api']],
  ['A=1 B=2', ['A=1', 'B=2']],
  ['x==y z', ['x==y', 'z']],
  ['do it now', ['it', 'now']],
  ['function a b', ['b']],
  ['[WIP] fix login', ['fix', 'login']],
  ['[message]', ['[message]']],
  ['<in.txt summarise it', ['summarise', 'it']],
  ['review <file>', ['review']],
  ['<file> [mode]', ['<file>', '[mode]']],
  ['copy $HOME "$HOME" $HOME/x ${X} $((1+1)) $1', ['copy', '$HOME', '$HOME/x']],
  ['$HOME x', ['$HOME', 'x']],
  ['x $(echo (a)) y', ['x']],
  ['Use `npm test` now', ['Use']],
  ['Fix issue #42 and #43', ['Fix', 'issue']],
  ['#123 high', ['#123', 'high']],
  ['deploy to prod && notify', ['deploy', 'to', 'prod']],
  ['; -v -v', ['-v', '-v']],
  ['(a b) c', ['a', 'b']],
  ['https://x.com/a?b=c&d=e next', ['https://x.com/a?b=c']],
  ['a b\nc d', ['a', 'b']],
  ['42 = high', ['42', 'high']],
  ['  ', []],
];

describe('claudeWords: the words Claude Code counts in the typed text', () => {
  it.each(cases)('%j', (text, words) => {
    expect(claudeWords(text)).toEqual(words);
  });
});
