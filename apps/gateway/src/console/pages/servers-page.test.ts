import type { BackendStatus } from '@promptyard/router';
import { describe, expect, it } from 'vitest';
import { errorRateText, latenciesText, renderServersTable } from './servers-page.js';
import type { ConsoleSession } from '../access/sessions.js';
import { serverStatus } from '../test-status.js';

const viewer: ConsoleSession = { id: 'session', csrf: 'csrf', subject: 'ann', role: 'viewer', expiresAt: Number.MAX_SAFE_INTEGER };

const server = (id: string, calls?: BackendStatus['calls']): BackendStatus => serverStatus(id, calls === undefined ? {} : { calls });

/** The cells of one server's row, as text. */
const cellsOf = (html: string, id: string): string[] => {
  const row = new RegExp(`<tr data-server="${id}"[^>]*>(.*?)</tr>`, 's').exec(html)?.[1] ?? '';
  return [...row.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/gs)].map((cell) => cell[1]!.replace(/<br>/g, ' ').replace(/<[^>]+>/g, ''));
};

describe('the Servers page', () => {
  it('writes p50 and p95 with no more digits than the ±9 % estimate has, the unit once when they share it', () => {
    const calls = (p50Ms: number, p95Ms: number) => ({ count: 10, failed: 0, toolErrors: 0, p50Ms, p95Ms, windowSeconds: 300 });
    expect(
      [
        [0.05, 0.42],
        [2.46, 12.4],
        [950, 1540],
        [30_000, 95_000],
      ].map(([p50, p95]) => latenciesText(calls(p50!, p95!))),
    ).toEqual(['< 0.1 ms / 0.4 ms', '2.5 / 12 ms', '950 ms / 1.5 s', '30.0 s / 1.6 min']);
    expect(latenciesText(undefined)).toBe('—');
  });

  it('writes the error rate as a share of the calls in the window', () => {
    const calls = { count: 1000, toolErrors: 0, p50Ms: 1, p95Ms: 2, windowSeconds: 300 };
    expect([0, 4, 0.5, 123].map((failed) => errorRateText({ ...calls, failed }))).toEqual(['0 %', '0.4 %', '< 0.1 %', '12 %']);
    expect(errorRateText(undefined)).toBe('—');
  });

  it('shows each server’s calls, p50, p95 and error rate over the window it names, and dashes without a call', () => {
    const html = String(
      renderServersTable(
        [server('alpha', { count: 250, failed: 1, toolErrors: 2, p50Ms: 11.6, p95Ms: 91.2, windowSeconds: 300 }), server('beta')],
        viewer,
      ),
    );
    expect(html).toContain('<caption>Servers behind this gateway; calls, latency and error rate over the last 5 minutes</caption>');
    expect(html).toMatch(
      /<th scope="col">In flight<\/th><th scope="col">Calls<\/th><th scope="col">Latency p50 \/ p95<\/th><th scope="col">Error rate<\/th>/,
    );
    expect(cellsOf(html, 'alpha').slice(7, 10)).toEqual(['250', '12 / 91 ms', '0.4 % 1 failed · 2 tool errors']);
    expect(html).toContain('data-calls="250" data-failed="1"');
    expect(cellsOf(html, 'beta').slice(7, 10)).toEqual(['—', '—', '—']);
  });
});
