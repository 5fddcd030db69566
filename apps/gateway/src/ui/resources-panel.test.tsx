import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { ResourcesPanel } from './resources-panel.js';
import { keys, renderPanel } from './test-render.js';
import { sampleModel } from './test-model.js';

afterEach(() => cleanup());

describe('ResourcesPanel', () => {
  it('lists resources, then templates marked T', async () => {
    const ui = await renderPanel(ResourcesPanel, sampleModel());
    const rows = ui.frame().split('\n');
    expect(rows[0]).toContain('1 resources  1 templates');
    expect(rows[1]).toMatch(/^› {3}info\s+\[alpha\]\s+alpha\+test:\/\/alpha\/info$/);
    expect(rows[2]).toMatch(/^ {2}T item\s+\[alpha\]\s+alpha\+test:\/\/alpha\/items\/\{id\}$/);
    expect(rows.at(-1)).toBe('↑↓ select  s server  enter read  esc back  tab panels  q quit');
  });

  it('reads the selected resource on enter and scrolls a long text', async () => {
    const text = Array.from({ length: 60 }, (_, index) => `line ${index + 1}`).join('\n');
    const model = sampleModel({ resourceText: text });
    const ui = await renderPanel(ResourcesPanel, model);
    await ui.press(keys.enter);
    await ui.until((frame) => expect(frame).toContain('line 1\n'));
    expect(model.calls.readResource).toEqual(['alpha+test://alpha/info']);
    expect(ui.frame()).toContain('-- rows 1-19 of 60 --');
    expect(ui.frame()).not.toContain('line 20');
    await ui.press(keys.down, keys.down);
    await ui.until((frame) => expect(frame).toContain('-- rows 3-21 of 60 --'));
    expect(ui.frame()).not.toContain('line 2\n');
    await ui.press(keys.escape);
    await ui.until((frame) => expect(frame).toContain('1 templates'));
  });

  it('shows a failed read as an error and a template without reading it', async () => {
    const model = sampleModel({ resourceText: new Error('resource not found') });
    const ui = await renderPanel(ResourcesPanel, model);
    await ui.press(keys.enter);
    await ui.until((frame) => expect(frame).toContain('alpha+test://alpha/info — error'));
    expect(ui.frame()).toContain('resource not found');
    await ui.press(keys.escape, keys.down, keys.enter);
    await ui.until((frame) => expect(frame).toContain('template alpha+test://alpha/items/{id}'));
    expect(model.calls.readResource).toEqual(['alpha+test://alpha/info']);
  });

  it('filters by server and follows list changes', async () => {
    const model = sampleModel();
    const ui = await renderPanel(ResourcesPanel, model);
    await ui.press('s', 's');
    await ui.until((frame) => expect(frame).toContain('server: beta  0 resources  0 templates'));
    model.update({ resources: [...model.resources(), { uri: 'beta+file:///notes.md', name: 'notes', server: 'beta' }] });
    await ui.until((frame) => expect(frame).toMatch(/notes\s+\[beta\]\s+beta\+file:\/\/\/notes\.md/));
  });
});
