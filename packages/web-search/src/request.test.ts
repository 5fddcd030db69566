import { describe, expect, it } from 'vitest';
import { parseRetryAfter, redact } from './request.js';

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    const now = Date.parse('Sun, 22 Nov 2026 20:00:00 GMT');
    expect(parseRetryAfter('Sun, 22 Nov 2026 20:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 19:00:00 GMT', now)).toBe(0);
  });
});

describe('redact', () => {
  it('removes a secret wherever it appears', () => {
    expect(redact('bad key abcd1234 (abcd1234)', 'abcd1234')).toBe('bad key *** (***)');
  });
});
