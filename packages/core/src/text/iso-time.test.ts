import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.js';

describe('isoTime', () => {
  it('writes what Date#toISOString writes', () => {
    const times = [
      0,
      1,
      999,
      Date.UTC(2026, 10, 27, 11, 21, 48, 953),
      Date.UTC(2000, 1, 29, 23, 59, 59, 5),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(999, 0, 1),
      Date.UTC(1, 0, 1) - 1,
      -1,
      Date.UTC(-1, 0, 1),
      Date.UTC(10_000, 0, 1),
      8.64e15,
      -8.64e15,
    ];
    // And a spread of times from 1900 to 2100.
    for (let time = Date.UTC(1900, 0, 1); time < Date.UTC(2100, 0, 1); time += 86_400_000 * 97 + 3_723_456) times.push(time);
    for (const time of times) expect(isoTime(time), String(time)).toBe(new Date(time).toISOString());
  });

  it('is now by default', () => {
    const before = Date.now();
    const written = Date.parse(isoTime());
    expect(written).toBeGreaterThanOrEqual(before);
    expect(written).toBeLessThanOrEqual(Date.now());
  });

  it('throws on an invalid time, as toISOString does', () => {
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
  });
});
