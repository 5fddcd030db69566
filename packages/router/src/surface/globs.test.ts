import { describe, expect, it } from 'vitest';
import { compileGlobList, globProblem } from './globs.js';

describe('compileGlobList', () => {
  it('knows braces, classes and negation', () => {
    const test = compileGlobList(['{echo,get-env}', 'list_[ab]*', '!list_b2']);
    expect(['echo', 'get-env', 'list_a', 'list_b1'].every(test)).toBe(true);
    expect(['add', 'list_b2', 'list_c'].some(test)).toBe(false);
  });

  it('serves everything but exclusions when only exclusions are given, nothing for an empty list', () => {
    const test = compileGlobList(['!delete_*']);
    expect(test('read_file')).toBe(true);
    expect(test('delete_file')).toBe(false);
    expect(compileGlobList([])('anything')).toBe(false);
    expect(compileGlobList(['*'])('any/thing')).toBe(true);
  });
});

describe('globProblem', () => {
  it('refuses globs that do not parse or cannot match, and names the fix', () => {
    expect(globProblem('{echo,get-env', 'name')).toMatch(/does not parse: "\{" is not matched/);
    expect(globProblem('list_]', 'name')).toMatch(/does not parse/);
    expect(globProblem('', 'name')).toMatch(/matches nothing/);
    expect(globProblem('!', 'name')).toMatch(/matches nothing/);
    expect(globProblem('get env', 'name')).toMatch(/names hold no spaces/);
    expect(globProblem('a{}', 'name')).toMatch(/empty \{\} or \[\]/);
  });

  it('accepts real globs', () => {
    for (const glob of ['*', '{echo,get-env}', '!delete_*', 'doc://team/*', 'list_[ab]?', 'a\\{b'])
      expect(globProblem(glob, 'uri')).toBeUndefined();
  });
});
