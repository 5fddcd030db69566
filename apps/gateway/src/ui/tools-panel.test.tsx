import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyRoot } from './keys.js';
import { keys, renderPanel, renderUi } from './test-render.js';
import { sampleModel, tool } from './test-model.js';
import { ToolsPanel } from './tools-panel.js';

afterEach(() => cleanup());

describe('ToolsPanel', () => {
  it('lists every tool as name, [server] and first sentence', async () => {
    const ui = await renderPanel(ToolsPanel, sampleModel());
    expect(ui.frame()).toMatch(/› alpha_echo\s+\[alpha\]\s+Returns its text\. Handy for checking the wiring\.\n/);
    expect(ui.frame()).toMatch(/gamma_search\s+\[gamma\]\s+Searches the web for a query\./);
    expect(ui.frame()).toContain('server: all  3 tools');
    expect(ui.frame().split('\n').at(-1)).toBe('↑↓ select  / search  s server  enter details  c call  esc back  q quit');
  });

  it('uses the terminal’s width: a long name is whole at 120 columns and cut at 80', async () => {
    const model = sampleModel();
    const long = 'github-enterprise-prod_create_pull_request_review_comment';
    model.update({ tools: [...model.tools(), tool(long, 'github-enterprise-prod', 'Comments on a review.')] });
    const wide = await renderUi(
      <KeyRoot>
        <ToolsPanel model={model} active width={120} height={22} />
      </KeyRoot>,
    );
    // ink-testing-library's screen is 100 columns: the description is past its edge.
    expect(wide.frame()).toContain(`  ${long}  [github-enterprise-prod]  Comm`);
    wide.unmount();
    const narrow = await renderPanel(ToolsPanel, model);
    expect(narrow.frame()).toContain(`  ${long.slice(0, 31)}…  [github-enterprise-prod]`);
  });

  it('filters live as the search is typed, in ranking order, and esc clears it', async () => {
    const ui = await renderPanel(ToolsPanel, sampleModel());
    await ui.press('/', 'w', 'e', 'b');
    await ui.until((frame) => expect(frame).toContain('search: web'));
    expect(ui.frame()).toContain('1 tools');
    expect(ui.frame()).toContain('› gamma_search');
    expect(ui.frame()).not.toContain('alpha_echo');
    await ui.press(keys.backspace, keys.backspace, keys.backspace, 'a', 'd', 'd');
    await ui.until((frame) => expect(frame).toContain('› alpha_add'));
    await ui.press(keys.escape);
    await ui.until((frame) => expect(frame).toContain('3 tools'));
    expect(ui.frame()).toContain('/ to search');
  });

  it('cycles a server filter with s', async () => {
    const ui = await renderPanel(ToolsPanel, sampleModel());
    await ui.press('s');
    await ui.until((frame) => expect(frame).toContain('server: alpha  2 tools'));
    await ui.press('s', 's');
    await ui.until((frame) => expect(frame).toContain('server: gamma  1 tools'));
    await ui.press('s');
    await ui.until((frame) => expect(frame).toContain('server: all  3 tools'));
  });

  it('moves the selection with the arrows and shows the description and input schema on enter', async () => {
    const ui = await renderPanel(ToolsPanel, sampleModel());
    await ui.press(keys.down, keys.down, keys.up, keys.enter);
    await ui.until((frame) => expect(frame).toContain('Adds two numbers.\n\ninput schema:'));
    await ui.press(keys.escape, keys.up, keys.enter);
    await ui.until((frame) => expect(frame).toContain('input schema:'));
    expect(ui.frame()).toContain('Returns its text. Handy for checking the wiring.');
    expect(ui.frame()).toContain('"required": [');
    expect(ui.frame().split('\n').at(-1)).toBe('↑↓ scroll  c call  esc back  q quit');
    await ui.press(keys.escape);
    await ui.until((frame) => expect(frame).toContain('/ to search'));
  });

  it('calls the tool with the typed JSON arguments and shows the result', async () => {
    const model = sampleModel({ toolResult: { text: 'hello back', isError: false } });
    const ui = await renderPanel(ToolsPanel, model);
    await ui.press('c');
    await ui.until((frame) => expect(frame).toContain('> {}'));
    await ui.press(keys.backspace, '"text": "hi"}', keys.enter);
    await ui.until((frame) => expect(frame).toContain('hello back'));
    expect(model.calls.callTool).toEqual([{ name: 'alpha_echo', args: { text: 'hi' } }]);
    expect(ui.frame()).toContain('alpha_echo — result');
  });

  it('refuses invalid JSON inline without calling, and shows an error result', async () => {
    const model = sampleModel({ toolResult: { text: 'text is required', isError: true } });
    const ui = await renderPanel(ToolsPanel, model);
    await ui.press('c', '{oops', keys.enter);
    await ui.until((frame) => expect(frame).toContain('invalid JSON'));
    await ui.press(keys.escape, 'c', keys.backspace, keys.backspace, '[]', keys.enter);
    await ui.until((frame) => expect(frame).toContain('arguments must be a JSON object'));
    expect(model.calls.callTool).toEqual([]);
    await ui.press(keys.backspace, keys.backspace, '{}', keys.enter);
    await ui.until((frame) => expect(frame).toContain('alpha_echo — error'));
    expect(ui.frame()).toContain('text is required');
  });

  it('shows tools that appear after a list change', async () => {
    const model = sampleModel();
    const ui = await renderPanel(ToolsPanel, model);
    model.update({ tools: [...model.tools(), tool('beta_new', 'beta', 'Arrived later.')] });
    await ui.until((frame) => expect(frame).toMatch(/beta_new\s+\[beta\]\s+Arrived later\./));
    expect(ui.frame()).toContain('4 tools');
  });
});
