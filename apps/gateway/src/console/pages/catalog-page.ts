/**
 * The Catalog page: the tools, prompts and resources one surface (the default one or a profile)
 * serves, each with its definition, the overrides applied and its pin state; a search narrows it
 * with the index behind `search_tools` (resources, which that index does not hold, by their text).
 * A plain GET form, so the page works, and can be linked, without script.
 */
import type { CatalogItem, CatalogSource } from '../sources/catalog-source.js';
import { consolePath, escapeHtml, renderPage } from './html.js';
import type { ConsoleSession } from '../access/sessions.js';

const kinds = [
  { kind: 'tool', heading: 'Tools' },
  { kind: 'prompt', heading: 'Prompts' },
  { kind: 'resource', heading: 'Resources' },
] as const;

const matchesText = (item: CatalogItem, query: string): boolean =>
  [item.name, item.title, item.description].some((text) => text?.toLowerCase().includes(query.toLowerCase()) === true);

/** The items a query keeps: tools and prompts the index ranks, resources whose text holds it. */
export const filterCatalog = (items: readonly CatalogItem[], query: string, ranked: ReadonlySet<string>): CatalogItem[] =>
  query === '' ? [...items] : items.filter((item) => (item.kind === 'resource' ? matchesText(item, query) : ranked.has(item.name)));

const definitionOf = (item: CatalogItem): string => {
  if (item.definition === undefined) return '';
  const label = item.kind === 'tool' ? 'Input schema' : 'Arguments';
  return `<p class="muted">${label}</p>\n<pre>${escapeHtml(JSON.stringify(item.definition, null, 2))}</pre>`;
};

const facts = (item: CatalogItem): string => {
  const rows: [string, string][] = [['Server', item.server]];
  if (item.original !== undefined) rows.push(['Name on its server', item.original]);
  if (item.kind !== 'resource') {
    rows.push(['Overrides applied', item.overrides.length === 0 ? 'none' : item.overrides.join('; ')]);
    rows.push(['Pin', item.pin]);
  }
  return `<dl>${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`;
};

/** The line a closed entry shows: name, title, server and pin (a change stands out). */
const summaryOf = (item: CatalogItem): string => {
  const title = item.title === undefined || item.title === item.name ? '' : ` — ${escapeHtml(item.title)}`;
  const pin =
    item.pin === 'held back' || item.pin === 'changed'
      ? ` <span class="state state-failed">${escapeHtml(item.pin)}</span>`
      : item.kind === 'resource'
        ? ''
        : ` · ${escapeHtml(item.pin)}`;
  const overridden = item.overrides.length === 0 ? '' : ' · overridden';
  return `<code>${escapeHtml(item.name)}</code>${title} <span class="muted">${escapeHtml(item.server)}${overridden}</span>${pin}`;
};

const entry = (
  item: CatalogItem,
): string => `<li data-kind="${item.kind}" data-name="${escapeHtml(item.name)}" data-pin="${escapeHtml(item.pin)}">
<details>
<summary>${summaryOf(item)}</summary>
${item.description === undefined ? '' : `<p>${escapeHtml(item.description)}</p>`}
${facts(item)}
${definitionOf(item)}
</details>
</li>`;

const section = (items: readonly CatalogItem[], kind: CatalogItem['kind'], heading: string): string => {
  const own = items.filter((item) => item.kind === kind);
  const id = `catalog-${kind}s`;
  return `<section aria-labelledby="${id}">
<h2 id="${id}">${heading} <span class="muted">(${own.length})</span></h2>
${own.length === 0 ? '<p class="muted">None.</p>' : `<ul class="catalog">\n${own.map(entry).join('\n')}\n</ul>`}
</section>`;
};

const searchForm = (
  profiles: readonly string[],
  profile: string,
  query: string,
): string => `<form method="get" action="${consolePath}/catalog" class="catalog-search" role="search">
<label for="catalog-profile">Profile</label>
<select id="catalog-profile" name="profile">${profiles
  .map((name) => `<option value="${escapeHtml(name)}"${name === profile ? ' selected' : ''}>${escapeHtml(name)}</option>`)
  .join('')}</select>
<label for="catalog-query">Search</label>
<input id="catalog-query" name="q" type="search" value="${escapeHtml(query)}">
<button type="submit">Show</button>
</form>`;

export const renderCatalogPage = (source: CatalogSource, params: URLSearchParams, session: ConsoleSession): string => {
  const profiles = source.profiles();
  const asked = params.get('profile') ?? profiles[0] ?? 'default';
  const profile = profiles.includes(asked) ? asked : (profiles[0] ?? 'default');
  const query = (params.get('q') ?? '').trim().slice(0, 200);
  const items = filterCatalog(source.items(profile), query, query === '' ? new Set() : source.search(profile, query));
  const summary = `${items.length} ${query === '' ? 'items' : `items match “${escapeHtml(query)}”`} in profile ${escapeHtml(profile)}`;
  return renderPage({
    title: 'Catalog',
    session,
    current: 'catalog',
    body: `<h1>Catalog</h1>
${searchForm(profiles, profile, query)}
${profiles.includes(asked) ? '' : `<p class="error" role="alert">There is no profile “${escapeHtml(asked)}”: showing ${escapeHtml(profile)}.</p>`}
<p class="summary" role="status">${summary}</p>
${kinds.map(({ kind, heading }) => section(items, kind, heading)).join('\n')}`,
  });
};
