import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { LogsPanel } from './logs-panel.js';
import { keys, renderPanel } from './test-render.js';
import { sampleModel } from './test-model.js';

afterEach(() => cleanup());

describe('LogsPanel', () => {
  it('shows time, server, level and text, newest at the bottom', async () => {
    const ui = await renderPanel(LogsPanel, sampleModel());
    const rows = ui.frame().split('\n');
    expect(rows[0]).toBe('server: all  level: debug+  4 lines');
    expect(rows[1]).toMatch(/^03:04:05 gateway\s+notice\s+1 of 3 servers ready$/);
    expect(rows[4]).toMatch(/^03:04:08 alpha\s+debug\s+tick$/);
    expect(rows.at(-1)).toBe('↑↓ scroll  s server  l level  end follow  tab panels  q quit');
  });

  it('filters by server with s and by minimum level with l', async () => {
    const ui = await renderPanel(LogsPanel, sampleModel());
    await ui.press('s', 's');
    await ui.until((frame) => expect(frame).toContain('server: alpha  level: debug+  2 lines'));
    expect(ui.frame()).not.toContain('gateway');
    await ui.press('l');
    await ui.until((frame) => expect(frame).toContain('level: info+  1 lines'));
    expect(ui.frame()).not.toContain('tick');
    await ui.press('s', 's', 's', 'l', 'l', 'l');
    await ui.until((frame) => expect(frame).toContain('server: all  level: error+  1 lines'));
    expect(ui.frame()).toMatch(/beta\s+error\s+cannot open database/);
  });

  it('follows new lines, keeps the last screenful, and scrolls back with the arrows', async () => {
    const model = sampleModel();
    const ui = await renderPanel(LogsPanel, model);
    for (let index = 1; index <= 30; index++) model.log({ server: 'alpha', level: 'info', source: 'stderr', text: `event ${index}` });
    await ui.until((frame) => expect(frame).toContain('event 30'));
    expect(ui.frame()).not.toContain('event 10\n');
    await ui.press(keys.up, keys.up);
    await ui.until((frame) => expect(frame).toContain('(2 newer below)'));
    expect(ui.frame()).not.toContain('event 30');
    model.log({ server: 'beta', level: 'warning', source: 'notification', text: 'slow down' });
    await ui.until((frame) => expect(frame).toContain('35 lines  (3 newer below)'));
    expect(ui.frame()).toMatch(/event 28\n/);
    expect(ui.frame()).not.toContain('slow down');
    await ui.press('\u001B[F');
    await ui.until((frame) => expect(frame).toMatch(/beta\s+warning\s+slow down/));
  });
});
