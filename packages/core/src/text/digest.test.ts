import { describe, expect, it } from 'vitest';
import { canonicalDigest, canonicalJson } from './digest.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and spells numbers one way (RFC 8785)', () => {
    expect(canonicalJson({ b: 1, a: { d: [1e2, 'x'], c: null } })).toBe('{"a":{"c":null,"d":[100,"x"]},"b":1}');
  });

  it('gives one digest for one value whatever the key order, another for another value', () => {
    expect(canonicalDigest({ a: 1, b: 2 })).toBe(canonicalDigest({ b: 2, a: 1 }));
    expect(canonicalDigest({ a: 1, b: 2 })).not.toBe(canonicalDigest({ a: 1, b: 3 }));
    expect(canonicalDigest({})).toMatch(/^[0-9a-f]{64}$/);
  });
});
