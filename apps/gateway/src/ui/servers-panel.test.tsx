import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { ServersPanel } from './servers-panel.js';
import { keys, renderPanel } from './test-render.js';
import { sampleModel, server } from './test-model.js';

afterEach(() => cleanup());

describe('ServersPanel', () => {
  it('lists every server with state, transport, era, uptime, restarts and counts, and the selected one in detail', async () => {
    const ui = await renderPanel(ServersPanel, sampleModel());
    const frame = ui.frame();
    expect(frame).toMatch(/› alpha\s+ready\s+stdio\s+2025-06-18\s+up 1m\s+↻0\s+2t 1p 1r/);
    expect(frame).toMatch(/ {2}beta\s+failed\s+stdio\s+-\s+up -\s+↻3\s+0t 0p 0r/);
    expect(frame).toMatch(/gamma\s+disabled\s+streamable-http/);
    expect(frame).toContain('pid: 4242   protocol: 2025-06-18 (legacy)');
    expect(frame).toContain('restarts: 0   list changes: notifications');
    expect(frame.split('\n').at(-1)).toBe('↑↓ select  r restart  d disable/enable  tab panels  q quit');
  });

  it('moves the selection with the arrows and shows that server’s error and next retry', async () => {
    const ui = await renderPanel(ServersPanel, sampleModel());
    await ui.press(keys.down);
    await ui.until((frame) => expect(frame).toContain('› beta'));
    expect(ui.frame()).toContain('last error: spawn ENOENT');
    expect(ui.frame()).toContain('next retry: in 8s   restarts: 3');
    await ui.press(keys.down, keys.down, keys.up);
    await ui.until((frame) => expect(frame).toContain('› beta'));
  });

  it('shows the p95 latency of the server’s calls of the last 5 minutes, a dash before the first', async () => {
    const calls = { count: 40, failed: 0, toolErrors: 0, p50Ms: 3.2, p95Ms: 181.3, windowSeconds: 300 };
    const ui = await renderPanel(ServersPanel, sampleModel({ servers: [server('alpha', { calls }), server('beta')] }));
    expect(ui.frame()).toContain('in flight: 0   p95 (5 min): 181 ms');
    await ui.press(keys.down);
    await ui.until((frame) => expect(frame).toContain('in flight: 0   p95 (5 min): -'));
  });

  it('says how a 2026-07-28 server without a listen stream is followed: polled at its ttlMs', async () => {
    const model = sampleModel({
      servers: [server('remote', { era: 'modern', protocolVersion: '2026-07-28', listChanges: 'polling every 30 s' })],
    });
    const ui = await renderPanel(ServersPanel, model);
    expect(ui.frame()).toContain('list changes: polling every 30 s');
  });

  it('shows a server that waits for a login, with the command that fixes it', async () => {
    const waiting = server('linear', {
      state: 'needs-login',
      transport: 'streamable-http',
      era: undefined,
      protocolVersion: undefined,
      pid: undefined,
      uptimeSeconds: undefined,
      lastError: 'server "linear" needs a login: run promptyard-gateway login linear (no stored token)',
    });
    const ui = await renderPanel(ServersPanel, sampleModel({ servers: [waiting] }));
    expect(ui.frame()).toMatch(/› linear\s+needs-login\s+streamable-http/);
    expect(ui.frame()).toContain('last error: server "linear" needs a login: run promptyard-gateway login linear');
  });

  it('takes several arrow keys read in one chunk as that many keys', async () => {
    const ui = await renderPanel(ServersPanel, sampleModel());
    await ui.press(keys.down + keys.down);
    await ui.until((frame) => expect(frame).toContain('› gamma'));
    await ui.press(keys.up + keys.up + keys.down);
    await ui.until((frame) => expect(frame).toContain('› beta'));
  });

  it('restarts the selected server on r and toggles enabled on d', async () => {
    const model = sampleModel();
    const ui = await renderPanel(ServersPanel, model);
    await ui.press(keys.down, 'r');
    await ui.until((frame) => expect(frame).toContain('restart beta: done'));
    expect(model.calls.restart).toEqual(['beta']);
    await ui.press('d');
    await ui.until(() => expect(model.calls.setEnabled).toEqual([{ server: 'beta', enabled: false }]));
    await ui.press(keys.down, 'd');
    await ui.until(() => expect(model.calls.setEnabled).toContainEqual({ server: 'gamma', enabled: true }));
  });

  it('shows a failed action in the panel', async () => {
    const model = sampleModel();
    const ui = await renderPanel(ServersPanel, { ...model, restart: () => Promise.reject(new Error('server "alpha" is disabled')) });
    await ui.press('r');
    await ui.until((frame) => expect(frame).toContain('restart alpha: server "alpha" is disabled'));
  });

  it('follows state changes the model reports', async () => {
    const model = sampleModel();
    const ui = await renderPanel(ServersPanel, model);
    model.update({ servers: model.servers().map((s) => (s.id === 'alpha' ? { ...s, state: 'restarting' as const, restarts: 1 } : s)) });
    await ui.until((frame) => expect(frame).toMatch(/alpha\s+restarting\s+stdio\s+2025-06-18\s+up 1m\s+↻1/));
  });

  it('windows a long list around the selection and never wraps a row', async () => {
    const model = sampleModel();
    const many = Array.from({ length: 40 }, (_, index) => ({
      ...model.servers()[0]!,
      id: `server-${String(index).padStart(2, '0')}-with-a-rather-long-name-indeed`,
    }));
    model.update({ servers: many });
    const ui = await renderPanel(ServersPanel, model);
    for (let index = 0; index < 30; index++) await ui.press(keys.down);
    await ui.until((frame) => expect(frame).toMatch(/› server-30/));
    const rows = ui.frame().split('\n');
    expect(rows).toHaveLength(22);
    expect(rows.every((row) => row.length <= 80)).toBe(true);
    expect(ui.frame()).not.toContain('server-00');
  });
});
