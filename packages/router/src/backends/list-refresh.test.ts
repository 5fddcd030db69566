import { silentLogger } from '@promptyard/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ListChanges, ListName, Listed, Tool, UpstreamConnection } from '../sdk/upstream-types.js';
import { emptyLists } from './backend-lists.js';
import type { BackendLists, Cuts } from './backend-lists.js';
import { pollIntervalMs } from '../sdk/polling.js';
import { ListRefresh } from './list-refresh.js';
import type { RefreshHost } from './list-refresh.js';

/** A server whose tools the test changes, with the `ttlMs` it puts on its lists, counting the lists it is asked for. */
const fakeServer = (ttlMs: number | undefined, changes: ListChanges) => {
  const state = { tools: ['first'], fails: false, asked: [] as ListName[], changes };
  const listed = <T>(list: ListName, items: T[]): Promise<Listed<T>> => {
    state.asked.push(list);
    return state.fails ? Promise.reject(new Error('connection refused')) : Promise.resolve({ items, ttlMs });
  };
  const connection = {
    get listChanges() {
      return state.changes;
    },
    skills: undefined,
    listTools: () =>
      listed(
        'tools',
        state.tools.map((name): Tool => ({ name, inputSchema: { type: 'object' } })),
      ),
    listPrompts: () => listed('prompts', []),
    listResources: () => listed('resources', []),
    listResourceTemplates: () => Promise.resolve({ items: [], ttlMs }),
  } as unknown as UpstreamConnection;
  return { state, connection };
};

const hostFor = (connection: UpstreamConnection) => {
  const host = {
    lists: emptyLists as BackendLists,
    cuts: {} as Cuts,
    updates: 0,
    serving: true,
  };
  const refreshHost: RefreshHost = {
    id: 'fake',
    logger: silentLogger(),
    lists: () => ({ lists: host.lists, cuts: host.cuts }),
    request: (lists) => ({ lists, timeoutMs: 1000, cap: 10_000, skillsFailed: () => {} }),
    serving: (candidate) => host.serving && candidate === connection,
    update: (fetched) => {
      host.lists = fetched.lists;
      host.cuts = fetched.cuts;
      host.updates++;
    },
  };
  return { host, refreshHost };
};

const polling: ListChanges = { via: 'polling', polled: ['tools', 'prompts', 'resources'] };
const toolNames = (lists: BackendLists): string[] => lists.tools.map((tool) => tool.name);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('pollIntervalMs', () => {
  it('obeys ttlMs within a floor and a ceiling, and guesses when the server gives none', () => {
    expect(pollIntervalMs(2500)).toBe(2500);
    expect(pollIntervalMs(10)).toBe(1000);
    expect(pollIntervalMs(86_400_000)).toBe(300_000);
    expect(pollIntervalMs(0)).toBe(30_000);
    expect(pollIntervalMs(undefined)).toBe(30_000);
  });
});

describe('ListRefresh', () => {
  it('lists a server without a listen stream again before its ttlMs runs out, every time', async () => {
    const { state, connection } = fakeServer(2000, polling);
    const { host, refreshHost } = hostFor(connection);
    const refresh = new ListRefresh(connection, refreshHost, { tools: 2000, prompts: 2000, resources: 2000 });
    expect(refresh.pollSeconds).toBe(2);
    state.tools = ['first', 'second'];
    await vi.advanceTimersByTimeAsync(1999);
    expect(toolNames(host.lists)).toEqual(['first', 'second']);
    // All three lists were due together: one fetch of each.
    expect(state.asked.sort()).toEqual(['prompts', 'resources', 'tools']);
    state.tools = ['third'];
    await vi.advanceTimersByTimeAsync(2000);
    expect(toolNames(host.lists)).toEqual(['third']);
    refresh.stop();
  });

  it('backs off when a poll fails, and keeps the lists it had', async () => {
    const { state, connection } = fakeServer(1000, { via: 'polling', polled: ['tools'] });
    const { host, refreshHost } = hostFor(connection);
    const refresh = new ListRefresh(connection, refreshHost, { tools: 1000 });
    state.fails = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(state.asked).toEqual(['tools']);
    // Twice the interval (with jitter, 1.6 to 1.9 s) after the failed poll (at 0.8 to 0.95 s).
    await vi.advanceTimersByTimeAsync(1300);
    expect(state.asked).toEqual(['tools']);
    await vi.advanceTimersByTimeAsync(600);
    expect(state.asked).toEqual(['tools', 'tools']);
    expect(host.updates).toBe(0);
    refresh.stop();
  });

  it('polls nothing a listen stream announces, and only the lists it does not', async () => {
    const { state, connection } = fakeServer(1000, { via: 'stream', polled: ['resources'] });
    const { refreshHost } = hostFor(connection);
    const refresh = new ListRefresh(connection, refreshHost, { tools: 1000, prompts: 1000, resources: 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(state.asked).toEqual(['resources']);
    // The stream covers everything now (it opened late): polling ends.
    state.changes = { via: 'stream', polled: [] };
    await vi.advanceTimersByTimeAsync(5000);
    expect(state.asked).toEqual(['resources']);
    expect(refresh.pollSeconds).toBeUndefined();
    refresh.stop();
  });

  it('lists again at once for an unknown name, at most once a second', async () => {
    const { state, connection } = fakeServer(60_000, polling);
    const { host, refreshHost } = hostFor(connection);
    const refresh = new ListRefresh(connection, refreshHost, { tools: 60_000 });
    state.tools = ['new'];
    expect(await refresh.relist()).toBe(true);
    expect(toolNames(host.lists)).toEqual(['new']);
    expect(await refresh.relist()).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    // Listed again, found as they were: no update, so the routes are not rebuilt.
    const updates = host.updates;
    expect(await refresh.relist()).toBe(false);
    expect(host.updates).toBe(updates);
    await vi.advanceTimersByTimeAsync(1000);
    state.tools = ['new', 'newer'];
    expect(await refresh.relist()).toBe(true);
    expect(toolNames(host.lists)).toEqual(['new', 'newer']);
    expect(state.asked.filter((list) => list === 'tools')).toHaveLength(3);
    refresh.stop();
  });

  it('coalesces a burst of list_changed: the fetch under way, then one more per list, and stops with its connection', async () => {
    const { state, connection } = fakeServer(undefined, { via: 'notifications', polled: [] });
    const { host, refreshHost } = hostFor(connection);
    const refresh = new ListRefresh(connection, refreshHost, {});
    // Four asks, three fetches: one per ask would fetch tools three times.
    await Promise.all([refresh.refresh(['tools']), refresh.refresh(['tools']), refresh.refresh(['tools']), refresh.refresh(['prompts'])]);
    expect(state.asked.sort()).toEqual(['prompts', 'tools', 'tools']);
    host.serving = false;
    await refresh.refresh(['tools']);
    expect(state.asked).toHaveLength(3);
    expect(await refresh.relist()).toBe(false);
    refresh.stop();
  });
});
