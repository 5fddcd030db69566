import { describe, expect, it } from 'vitest';
import { closestNames, formatList } from './suggest.js';

describe('closestNames', () => {
  const names = ['review', 'git/commit', 'git/review-pr', 'plan', 'writing:summarize'];
  it('suggests typos, containment and shared leaf names', () => {
    expect(closestNames('reveiw', names)[0]).toBe('review');
    expect(closestNames('commit', names)).toEqual(['git/commit']);
    expect(closestNames('summarize', names)).toEqual(['writing:summarize']);
    expect(closestNames('zzzzzz', names)).toEqual([]);
  });
});

describe('formatList', () => {
  it('joins quoted items', () => {
    expect(formatList(['a'])).toBe('"a"');
    expect(formatList(['a', 'b', 'c'], 'and')).toBe('"a", "b" and "c"');
  });
});
