import { describe, expect, it } from 'vitest';
import { filterCatalog, renderCatalogPage } from './catalog-page.js';
import type { CatalogItem, CatalogSource } from '../sources/catalog-source.js';

const items: CatalogItem[] = [
  {
    kind: 'tool',
    name: 'alpha_echo',
    server: 'alpha',
    original: 'echo',
    description: 'Says <it> back',
    definition: { type: 'object' },
    overrides: ['description'],
    pin: 'pinned',
  },
  { kind: 'tool', name: 'beta_add', server: 'beta', original: 'add', overrides: [], pin: 'changed' },
  { kind: 'resource', name: 'alpha+file:///notes.md', server: 'alpha', description: 'Team notes', overrides: [], pin: 'not pinned' },
];

const source: CatalogSource = {
  profiles: () => ['default', 'design'],
  items: () => items,
  search: (_profile, query) => new Set(query === 'echo' ? ['alpha_echo'] : []),
};

const session = { id: 's', csrf: 'c', subject: 'ann', role: 'viewer' as const, expiresAt: Date.now() + 60_000 };

describe('the Catalog page', () => {
  it('keeps the tools the search index ranks and the resources whose text holds the query', () => {
    expect(filterCatalog(items, '', new Set()).map((item) => item.name)).toHaveLength(3);
    expect(filterCatalog(items, 'echo', new Set(['alpha_echo'])).map((item) => item.name)).toEqual(['alpha_echo']);
    expect(filterCatalog(items, 'notes', new Set()).map((item) => item.name)).toEqual(['alpha+file:///notes.md']);
  });

  it('shows each definition with its overrides and pin, escaped, and says when a profile is unknown', () => {
    const html = String(renderCatalogPage(source, new URLSearchParams({ profile: 'nope' }), session));
    expect(html).toContain('Says &lt;it&gt; back');
    expect(html).toContain('<dt>Overrides applied</dt><dd>description</dd>');
    expect(html).toContain('data-name="beta_add" data-pin="changed"');
    expect(html).toContain('There is no profile “nope”: showing default.');
    expect(html).toContain('aria-current="page">Catalog');
    const searched = String(renderCatalogPage(source, new URLSearchParams({ profile: 'design', q: 'echo' }), session));
    expect(searched).toContain('<option value="design" selected>');
    expect(searched).toContain('1 items match “echo” in profile design');
  });
});
