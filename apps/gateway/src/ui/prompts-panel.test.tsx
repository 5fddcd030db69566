import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { PromptsPanel } from './prompts-panel.js';
import { keys, renderPanel } from './test-render.js';
import { sampleModel } from './test-model.js';

afterEach(() => cleanup());

describe('PromptsPanel', () => {
  it('lists every prompt and filters by search and server', async () => {
    const ui = await renderPanel(PromptsPanel, sampleModel());
    expect(ui.frame()).toMatch(/› alpha_greet\s+\[alpha\]\s+Greets someone\./);
    expect(ui.frame()).toMatch(/gamma_summary\s+\[gamma\]\s+Summarises a page\./);
    await ui.press('/', 'summ');
    await ui.until((frame) => expect(frame).toContain('› gamma_summary'));
    expect(ui.frame()).not.toContain('alpha_greet');
    await ui.press(keys.enter, 's');
    await ui.until((frame) => expect(frame).toContain('server: alpha  0 prompts'));
    expect(ui.frame()).toContain('(no prompt matches "summ")');
  });

  it('shows the arguments, required ones marked, on enter', async () => {
    const ui = await renderPanel(PromptsPanel, sampleModel());
    await ui.press(keys.enter);
    await ui.until((frame) => expect(frame).toContain('arguments (* required):'));
    expect(ui.frame()).toMatch(/name\*\s+Who to greet/);
    expect(ui.frame()).toMatch(/style\s+formal or casual/);
  });

  it('renders the prompt with the values typed in the form', async () => {
    const model = sampleModel({ promptResult: 'user: Hello Ada (formal)' });
    const ui = await renderPanel(PromptsPanel, model);
    await ui.press(keys.enter, keys.enter);
    await ui.until((frame) => expect(frame).toContain('alpha_greet — arguments'));
    await ui.press('Ada', keys.tab, 'formal');
    await ui.until((frame) => expect(frame).toMatch(/style: formal/));
    expect(ui.frame()).toMatch(/name\*: Ada/);
    await ui.press(keys.enter);
    await ui.until((frame) => expect(frame).toContain('user: Hello Ada (formal)'));
    expect(model.calls.renderPrompt).toEqual([{ name: 'alpha_greet', args: { name: 'Ada', style: 'formal' } }]);
  });

  it('moves between fields with the arrows and submits with ctrl-s, leaving out empty optional values', async () => {
    const model = sampleModel();
    const ui = await renderPanel(PromptsPanel, model);
    await ui.press('r', keys.down, 'x', keys.backspace, keys.up, 'Bo', keys.ctrlS);
    await ui.until(() => expect(model.calls.renderPrompt).toEqual([{ name: 'alpha_greet', args: { name: 'Bo' } }]));
  });

  it('asks for a missing required argument instead of rendering', async () => {
    const model = sampleModel();
    const ui = await renderPanel(PromptsPanel, model);
    await ui.press('r', keys.ctrlS);
    await ui.until((frame) => expect(frame).toContain('"name" is required'));
    expect(model.calls.renderPrompt).toEqual([]);
    await ui.press(keys.escape);
    await ui.until((frame) => expect(frame).toContain('arguments (* required):'));
  });

  it('shows a failed render as an error', async () => {
    const ui = await renderPanel(PromptsPanel, sampleModel({ promptResult: new Error('prompt "alpha_greet" needs argument "name"') }));
    await ui.press(keys.down, 'r', keys.enter);
    await ui.until((frame) => expect(frame).toContain('gamma_summary — error'));
  });

  it('shows prompts that appear after a list change', async () => {
    const model = sampleModel();
    const ui = await renderPanel(PromptsPanel, model);
    model.update({ prompts: [...model.prompts(), { name: 'beta_review', server: 'beta', description: 'Reviews code.', arguments: [] }] });
    await ui.until((frame) => expect(frame).toMatch(/beta_review\s+\[beta\]\s+Reviews code\./));
  });
});
