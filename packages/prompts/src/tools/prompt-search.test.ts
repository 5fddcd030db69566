import { describe, expect, it } from 'vitest';
import { createCatalog, type PromptEntry } from '@promptyard/core';
import { createPromptSearch } from './prompt-search.js';

const entry = (name: string, description: string, text = ''): PromptEntry => ({
  name,
  description,
  arguments: [],
  origin: { file: `/p/${name}.md` },
  text,
  render: async () => ({ messages: [] }),
});

describe('createPromptSearch', () => {
  it('ranks by name, description and text with prefix and fuzzy matching, and follows catalog changes', () => {
    const catalog = createCatalog<PromptEntry>({ kind: 'prompt' });
    const owner = catalog.owner('a');
    owner.replace([
      entry('git/commit', 'Write a commit message'),
      entry('review', 'Review code for bugs', 'Look at the diff'),
      entry('translate', 'Translate a text', 'Into French'),
    ]);
    const search = createPromptSearch({ catalog });
    expect(search.search('comit', 5).map((found) => found.name)[0]).toBe('git/commit');
    expect(search.search('transl', 5).map((found) => found.name)).toEqual(['translate']);
    expect(search.search('french', 5).map((found) => found.name)).toEqual(['translate']);
    // No prompt has both words: any word then, a name match (git/commit) above a body match (review).
    expect(search.search('diff commit', 5).map((found) => found.name)).toEqual(['git/commit', 'review']);
    expect(search.search('diff commit', 1).map((found) => found.name)).toEqual(['git/commit']);
    // A prompt with every word of the query comes first.
    expect(search.search('review diff', 5).map((found) => found.name)[0]).toBe('review');
    owner.replace([entry('deploy', 'Deploy the service')]);
    expect(search.search('deploy', 5).map((found) => found.name)).toEqual(['deploy']);
    expect(search.search('commit', 5)).toEqual([]);
    // An edited prompt is re-indexed: its old words no longer find it, its new ones do.
    owner.update({ upserted: [entry('deploy', 'Ship the release')] });
    expect(search.search('release', 5).map((found) => found.name)).toEqual(['deploy']);
    expect(search.search('service', 5)).toEqual([]);
  });
});
