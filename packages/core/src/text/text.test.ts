import { describe, expect, it } from 'vitest';
import { capText, truncateUtf8 } from './text.js';

describe('UTF-8 limits', () => {
  it('cuts on a character boundary, with a note that fits in the limit', () => {
    const cut = capText('é'.repeat(100), 60, '[x] y');
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(60);
    expect(cut).toMatch(/^é+\n\[output cut at 60 bytes \(\[x\] y\)\]$/);
    expect(capText('short', 60, 's')).toBe('short');
  });

  it('never splits a character, whatever its width', () => {
    const text = 'aé€😀'.repeat(50);
    for (let limit = 0; limit < 40; limit++) {
      const cut = truncateUtf8(text, limit);
      expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(limit);
      expect(text.startsWith(cut)).toBe(true);
      // The next character would not have fitted.
      const next = text.slice(cut.length).codePointAt(0) ?? 0;
      expect(Buffer.byteLength(cut) + Buffer.byteLength(String.fromCodePoint(next))).toBeGreaterThan(limit);
    }
    expect(truncateUtf8('abc', 10)).toBe('abc');
  });
});
