import { describe, expect, it } from 'vitest';
import type { BackendStatus } from '@promptyard/router';
import { formatStatus } from './status.js';

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
});
