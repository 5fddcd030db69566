import { describe, expect, it } from 'vitest';
import { createActivityFeed } from '../sources/activity-feed.js';
import { activityFilterOf, renderActivityTable } from './activity-page.js';

const call = { profile: 'default', server: 'alpha', kind: 'tool', durationMs: 3.25 } as const;

describe('the Activity page', () => {
  it('passes every entry on to the gateway trail and keeps the last ones, without the arguments digest', () => {
    const passed: unknown[] = [];
    const feed = createActivityFeed({ record: (entry) => void passed.push(entry), close: async () => {} }, 2);
    for (const name of ['a', 'b', 'c'])
      feed.trail.record({ ...call, name, decision: 'allowed', identity: 'ann', argumentsDigest: 'sha256-secret' });
    expect(passed).toHaveLength(3);
    expect(feed.entries().map((entry) => entry.name)).toEqual(['b', 'c']);
    expect(JSON.stringify(feed.entries())).not.toContain('sha256-secret');
  });

  it('tells its listeners once for a burst', async () => {
    const feed = createActivityFeed(undefined);
    let told = 0;
    feed.subscribe(() => void (told += 1));
    feed.trail.record({ ...call, name: 'a', decision: 'allowed' });
    feed.trail.record({ ...call, name: 'b', decision: 'denied' });
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(told).toBe(1);
  });

  it('shows the matching entries newest first, filtered by server, tool, identity and decision', () => {
    const feed = createActivityFeed(undefined);
    feed.trail.record({ ...call, name: 'alpha_echo', decision: 'allowed', identity: 'ann' });
    feed.trail.record({ ...call, name: 'alpha_add', decision: 'denied', identity: 'bob' });
    feed.trail.record({ ...call, server: 'beta', name: 'beta_echo', decision: 'allowed', identity: 'ann' });
    const names = (query: string): string[] =>
      [...String(renderActivityTable(feed, activityFilterOf(new URLSearchParams(query)))).matchAll(/data-name="([^"]+)"/g)].map(
        (match) => match[1] as string,
      );
    expect(names('')).toEqual(['beta_echo', 'alpha_add', 'alpha_echo']);
    expect(names('tool=echo')).toEqual(['beta_echo', 'alpha_echo']);
    expect(names('server=alpha&decision=allowed')).toEqual(['alpha_echo']);
    expect(names('identity=bob')).toEqual(['alpha_add']);
    expect(String(renderActivityTable(feed, activityFilterOf(new URLSearchParams('identity=carol'))))).toContain(
      'No entry matches the filter.',
    );
  });

  it('escapes what callers name', () => {
    const feed = createActivityFeed(undefined);
    feed.trail.record({ ...call, name: '<img src=x>', decision: 'denied', identity: '"><script>' });
    const html = String(renderActivityTable(feed, {}));
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script>');
  });
});
