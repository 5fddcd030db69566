import { describe, expect, it } from 'vitest';
import { closestNames, didYouMean, formatList, namesWithinEdits } from './suggest.js';

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

describe('didYouMean', () => {
  it('places the hint as a sentence, an aside or a clause, and says nothing when no name is close', () => {
    expect(didYouMean(['review'])).toBe(' Did you mean "review"?');
    expect(didYouMean(['a', 'b'], 'aside')).toBe(' (did you mean "a" or "b"?)');
    expect(didYouMean(['x'], 'clause', (names) => names.map((name) => `[${name}]`).join(' or '))).toBe('; did you mean [x]?');
    expect(didYouMean(['list'], 'colon')).toBe(': did you mean "list"?');
    expect(didYouMean([], 'aside')).toBe('');
  });
});

describe('namesWithinEdits', () => {
  it('finds typos (a transposition is one edit, case differences are free) but not names that merely contain the input', () => {
    expect(namesWithinEdits('argumnets', ['arguments', 'description'], 1)).toEqual(['arguments']);
    expect(namesWithinEdits('Description', ['description'], 0)).toEqual(['description']);
    expect(namesWithinEdits('tools', ['allowed-tools', 'model'], 2)).toEqual([]);
    expect(namesWithinEdits('modle', ['mode', 'model'], 2)).toEqual(['mode', 'model']);
  });
});
