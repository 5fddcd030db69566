import { describe, expect, it } from 'vitest';
import { columnWidth, widthShare } from './format.js';

describe('column widths', () => {
  it('fit the longest value between a floor and a ceiling that grows with the terminal', () => {
    const names = ['a', 'x'.repeat(50)];
    expect(columnWidth(names, Math.max(32, 80 - 56))).toBe(32);
    expect(columnWidth(names, Math.max(32, 120 - 56))).toBe(50);
    expect(columnWidth(['ab'], 40, 4)).toBe(4);
    expect(columnWidth([], 40)).toBe(2);
    expect([widthShare(80, 0.2, 16), widthShare(120, 0.2, 16), widthShare(40, 0.2, 16)]).toEqual([16, 24, 16]);
  });
});
