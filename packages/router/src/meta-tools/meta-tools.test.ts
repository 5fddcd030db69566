import { describe, expect, it } from 'vitest';
import { createCatalogSearch } from '../routes/catalog-search.js';
import { createMetaTools } from './meta-tools.js';
import type { MetaToolHost } from './caller-view.js';
import type { Prompt } from '../sdk/upstream-types.js';

const prompts: Prompt[] = [
  {
    name: 'git_review',
    description: 'Reviews a change before it is merged. Then more.',
    arguments: [{ name: 'diff', required: true }, { name: 'style', required: false }, { name: 'focus' }],
  },
];

const host: MetaToolHost & { version: number } = {
  version: 1,
  backendIds: () => ['git'],
  allTools: () => [],
  toolOwner: () => undefined,
  backendTool: () => undefined,
  listPrompts: () => prompts,
  promptOwner: () => ({ server: 'git' }),
  getPromptDefinition: (name) => prompts.find((prompt) => prompt.name === name),
  callTool: async () => ({ content: [] }),
};

const call = async (name: string, args: Record<string, unknown>): Promise<string> => {
  const tool = createMetaTools(host, createCatalogSearch(host)).find((meta) => meta.definition.name === name);
  const result = await tool?.call(args, {});
  return (result?.content[0] as { text: string }).text;
};

describe('prompt cards', () => {
  it('mark optional arguments with `?` in search_prompts as in catalog_prompts', async () => {
    expect(await call('search_prompts', { query: 'review' })).toBe(
      '1 prompts for "review":\ngit_review(diff, style?, focus?) [git] — Reviews a change before it is merged.',
    );
    expect(await call('catalog_prompts', {})).toContain('git_review(diff, style?, focus?) — Reviews a change before it is merged.');
  });

  it('still find a prompt by an optional argument’s name', async () => {
    expect(await call('search_prompts', { query: 'style' })).toContain('git_review(');
  });
});
