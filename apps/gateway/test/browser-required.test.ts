/**
 * The one rule for a browser suite on a machine without Chromium (`test-support/browser.ts`): skipped
 * with the reason printed, or failed where `PROMPTYARD_REQUIRE_BROWSER=1` (as `.ci/run` sets it).
 */
import { describe, expect, it } from 'vitest';
import { skipWithoutBrowser } from '../../../test-support/browser.js';

const missing = '/nonexistent/chromium';

describe('a browser suite without Chromium', () => {
  it('runs where the browser is there', () => {
    expect(skipWithoutBrowser('a suite', { env: { PROMPTYARD_REQUIRE_BROWSER: '1' }, path: process.execPath })).toBe(false);
  });

  it('is skipped, saying why and how to make it a failure', () => {
    const printed: string[] = [];
    expect(skipWithoutBrowser('a suite', { env: {}, path: missing, warn: (line) => void printed.push(line) })).toBe(true);
    expect(printed).toEqual([
      expect.stringMatching(/^a suite skipped: \/nonexistent\/chromium is missing \(.*PROMPTYARD_REQUIRE_BROWSER=1/),
    ]);
  });

  it('fails where PROMPTYARD_REQUIRE_BROWSER=1 requires a browser', () => {
    expect(() => skipWithoutBrowser('a suite', { env: { PROMPTYARD_REQUIRE_BROWSER: '1' }, path: missing })).toThrow(
      'a suite: /nonexistent/chromium is missing and PROMPTYARD_REQUIRE_BROWSER=1 requires a browser',
    );
    expect(skipWithoutBrowser('a suite', { env: { PROMPTYARD_REQUIRE_BROWSER: '0' }, path: missing, warn: () => {} })).toBe(true);
  });
});
