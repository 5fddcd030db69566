import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BackendStatus } from '@promptyard/router';
import { formatStatus, statusProgress } from './status.js';

const backend = (id: string, listChanges: string | undefined): BackendStatus => ({
  id,
  state: listChanges === undefined ? 'restarting' : 'ready',
  transport: 'streamable-http',
  restarts: 0,
  listChanges,
  counts: { tools: 1, prompts: 0, resources: 0, resourceTemplates: 0 },
  inFlight: 0,
});

describe('formatStatus', () => {
  it('says how each connected server’s list changes reach the gateway', () => {
    const text = formatStatus({
      backends: [
        backend('old', 'notifications'),
        backend('modern', 'stream'),
        backend('plain', 'polling every 30 s'),
        backend('down', undefined),
      ],
      collisions: [],
      counts: { tools: 3, prompts: 0, resources: 0, resourceTemplates: 0 },
      lazy: false,
      profile: 'default',
      quarantined: [],
    });
    expect(text).toContain('list changes: old notifications, modern stream, plain polling every 30 s\n');
    expect(text.trimEnd().split('\n').at(-1)).toBe('total: 3 tools, 0 prompts, 0 resources, 0 templates');
  });

  it('says why a ready server is degraded, a line for each list cut to max_definitions', () => {
    const reason =
      'github: lists more than 10000 tools, over [limits] max_definitions (10000); the first 10000 are served — raise the limit or trim the server';
    const text = formatStatus({
      backends: [{ ...backend('github', 'notifications'), degraded: [reason] }, backend('small', 'stream')],
      collisions: [],
      counts: { tools: 2, prompts: 0, resources: 0, resourceTemplates: 0 },
      lazy: false,
      profile: 'default',
      quarantined: [],
    });
    expect(text.split('\n').filter((line) => line.startsWith('degraded:'))).toEqual([`degraded: ${reason}`]);
  });
});

describe('statusProgress off a terminal', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('names every server still starting, with its elapsed time, every 5 s until it settles', () => {
    vi.useFakeTimers();
    const written: string[] = [];
    const progress = statusProgress({
      ids: ['fast', 'slow', 'other'],
      connectMs: 30_000,
      write: (text) => written.push(text),
      tty: false,
      paint: (_tone, text) => text,
    });
    vi.advanceTimersByTime(1000);
    progress.update(backend('fast', 'stream'));
    vi.advanceTimersByTime(4000);
    expect(written.at(-1)).toBe('still starting: slow (5 s), other (5 s)\n');
    progress.update({ ...backend('slow', undefined), state: 'failed', lastError: 'could not connect' });
    vi.advanceTimersByTime(5000);
    expect(written.at(-1)).toBe('still starting: other (10 s)\n');
    expect(written.filter((line) => line.startsWith('still starting'))).toHaveLength(2);
    progress.stop();
    vi.advanceTimersByTime(20_000);
    expect(written.filter((line) => line.startsWith('still starting'))).toHaveLength(2);
    // No cursor movement in a pipe: every line stands alone.
    expect(written.join('')).not.toContain('\u001b');
  });

  it('says nothing more once every server has settled', () => {
    vi.useFakeTimers();
    const written: string[] = [];
    const progress = statusProgress({
      ids: ['fast'],
      connectMs: 30_000,
      write: (text) => written.push(text),
      tty: false,
      paint: (_tone, text) => text,
    });
    progress.update(backend('fast', 'stream'));
    vi.advanceTimersByTime(15_000);
    expect(written.join('')).not.toContain('still starting');
    progress.stop();
  });
});
