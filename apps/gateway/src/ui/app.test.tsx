import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from './app.js';
import { keys, renderUi } from './test-render.js';
import { sampleModel, server } from './test-model.js';

afterEach(() => cleanup());

const lines = (frame: string): string[] => frame.split('\n');

describe('App', () => {
  it('shows the totals, the tabs and the active panel with its help on the last row', async () => {
    const ui = await renderUi(<App model={sampleModel()} />);
    const rows = lines(ui.frame());
    expect(rows[0]).toBe('promptyard-gateway · 3 servers (1 ready) · 3 tools · 2 prompts · 1 resources');
    expect(rows[1]).toBe('1 Servers  2 Tools  3 Prompts  4 Resources  5 Logs  6 Pins');
    expect(rows).toHaveLength(24);
    expect(rows[23]).toBe('↑↓ select  r restart  d disable/enable  tab panels  q quit');
    expect(rows.every((row) => row.length <= 100)).toBe(true);
  });

  it('switches panels with 1–6, tab and shift-tab', async () => {
    const ui = await renderUi(<App model={sampleModel()} />);
    await ui.press('2');
    await ui.until((frame) => expect(lines(frame)[23]).toBe('↑↓ select  / search  s server  enter details  c call  esc back  q quit'));
    await ui.press(keys.tab);
    await ui.until((frame) => expect(frame).toContain('alpha_greet'));
    await ui.press(keys.shiftTab, keys.shiftTab);
    await ui.until((frame) => expect(frame).toContain('alpha  ready'));
    await ui.press(keys.shiftTab);
    await ui.until((frame) => expect(frame).toContain('(nothing quarantined: every definition served is the approved one)'));
    await ui.press(keys.shiftTab);
    await ui.until((frame) => expect(frame).toContain('1 of 3 servers ready'));
    await ui.press('4');
    await ui.until((frame) => expect(frame).toContain('alpha+test://alpha/info'));
  });

  it('counts the quarantined definitions on the Pins tab, and shows them on 6', async () => {
    const model = sampleModel();
    const ui = await renderUi(<App model={model} />);
    model.update({
      quarantined: [
        { server: 'alpha', kind: 'tool', name: 'echo', change: 'changed', fields: ['description'], message: 'alpha/echo changed' },
      ],
    });
    await ui.until((frame) => expect(lines(frame)[1]).toBe('1 Servers  2 Tools  3 Prompts  4 Resources  5 Logs  6 Pins (1)'));
    await ui.press('6');
    await ui.until((frame) => expect(frame).toMatch(/› alpha\/echo\s+tool\s+changed\s+description/));
    expect(lines(ui.frame())).toHaveLength(24);
  });

  it('quits on q, but q typed into a search is text', async () => {
    const onQuit = vi.fn();
    const ui = await renderUi(<App model={sampleModel()} onQuit={onQuit} />);
    await ui.press('2', '/', 'q');
    await ui.until((frame) => expect(frame).toContain('search: q'));
    expect(onQuit).not.toHaveBeenCalled();
    await ui.press(keys.escape, 'q');
    await ui.until(() => expect(onQuit).toHaveBeenCalledOnce());
  });

  it('takes keys that arrive in one chunk one at a time', async () => {
    const onQuit = vi.fn();
    const ui = await renderUi(<App model={sampleModel()} onQuit={onQuit} />);
    await ui.press('2/quick');
    await ui.until((frame) => expect(frame).toContain('search: quick'));
    expect(onQuit).not.toHaveBeenCalled();
  });

  it('redraws when the model reports a change', async () => {
    const model = sampleModel();
    const ui = await renderUi(<App model={model} />);
    model.update({
      servers: [
        ...model.servers().map((s) => (s.id === 'beta' ? { ...s, state: 'ready' as const, lastError: undefined } : s)),
        server('delta', { state: 'starting' }),
      ],
    });
    await ui.until((frame) => expect(lines(frame)[0]).toBe('promptyard-gateway · 4 servers (2 ready) · 3 tools · 2 prompts · 1 resources'));
    expect(ui.frame()).toMatch(/delta\s+starting/);
    ui.unmount();
    expect(model.listeners).toBe(0);
  });
});
