import { describe, expect, it } from 'vitest';
import { createCatalog, createPromptService, silentLogger } from '@promptyard/core';
import type { PromptEntry, PromptMessage } from '@promptyard/core';
import { createPromptResources, promptUri } from './prompt-resources.js';
import { createPromptTools } from './prompt-tools.js';

const entry = (name: string, messages: readonly PromptMessage[]): PromptEntry => ({
  name,
  description: `About ${name}`,
  arguments: [{ name: 'x', required: false }],
  origin: { file: `/nowhere/${name}.md` },
  render: async () => ({ messages }),
});

const setup = () => {
  const catalog = createCatalog<PromptEntry>({ kind: 'prompt' });
  catalog.owner('t').replace([
    entry('one', [{ role: 'user', content: { type: 'text', text: 'Hello' } }]),
    entry('few/shot', [
      { role: 'user', content: { type: 'text', text: 'Q' } },
      { role: 'assistant', content: { type: 'text', text: 'A' } },
      { role: 'user', content: { type: 'resource', resource: { uri: 'file:///a.md', text: '# A' } } },
    ]),
  ]);
  const prompts = createPromptService({
    catalog,
    logger: silentLogger(),
    limits: { maxArgumentChars: 100, maxResponseBytes: 10_000 },
    timeoutMs: 1000,
  });
  return { prompts, catalog };
};

const context = { signal: new AbortController().signal, logger: silentLogger() };

describe('prompt tools and resources', () => {
  it('renders several messages under their roles, and lists cards', async () => {
    const { prompts } = setup();
    const tools = createPromptTools({ prompts, maxOutputBytes: 10_000 });
    expect(tools.map((tool) => tool.name)).toEqual(['list_prompts', 'get_prompt']);
    const get = tools[1];
    const result = await get?.execute({ name: 'few/shot', arguments: { x: 1 } }, context);
    expect(result?.content[0]?.text).toBe('[user]\nQ\n\n[assistant]\nA\n\n[user]\n[resource file:///a.md]\n# A');
    const list = await tools[0]?.execute({}, context);
    expect(list?.content[0]?.text).toBe('2 prompts:\nfew/shot(x?) — About few/shot\none(x?) — About one');
  });

  it('names resources by percent-encoded prompt name and reports unknown ones', async () => {
    const { prompts } = setup();
    const resources = createPromptResources({ prompts, maxOutputBytes: 10_000 });
    expect(resources.list().map((resource) => resource.uri)).toEqual(['prompt://few%2Fshot', 'prompt://one']);
    expect(promptUri('claude:git/x')).toBe('prompt://claude%3Agit%2Fx');
    const [content] = await resources.read('prompt://few%2Fshot');
    expect(content && 'text' in content ? content.text : '').toContain('# few/shot\n\nAbout few/shot\n\nArguments:\n- x');
    await expect(resources.read('prompt://%E0%A4%A')).rejects.toThrow(/Unknown resource/);
  });
});
