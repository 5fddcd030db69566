/**
 * The Catalog page: the tools, prompts and resources one surface (the default one or a profile)
 * serves, each with its definition, the overrides applied and its pin state; a search narrows it
 * with the index behind `search_tools` (resources, which that index does not hold, by their text).
 * A plain GET form, so the page works, and can be linked, without script.
 */
import type { CatalogItem, CatalogSource } from '../sources/catalog-source.js';
import { consolePath, renderPage } from './html.js';
import { html } from './template.js';
import type { Html } from './template.js';
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

const definitionOf = (item: CatalogItem): Html | undefined => {
  if (item.definition === undefined) return undefined;
  const label = item.kind === 'tool' ? 'Input schema' : 'Arguments';
  return html`<p class="muted">${label}</p>\n<pre>${JSON.stringify(item.definition, null, 2)}</pre>`;
};

const facts = (item: CatalogItem): Html => {
  const rows: [string, string][] = [['Server', item.server]];
  if (item.original !== undefined) rows.push(['Name on its server', item.original]);
  if (item.kind !== 'resource') {
    rows.push(['Overrides applied', item.overrides.length === 0 ? 'none' : item.overrides.join('; ')]);
    rows.push(['Pin', item.pin]);
  }
  return html`<dl>${rows.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}</dl>`;
};

/** The line a closed entry shows: name, title, server and pin (a change stands out). */
const summaryOf = (item: CatalogItem): Html => {
  const title = item.title !== undefined && item.title !== item.name && ` — ${item.title}`;
  const pin =
    item.pin === 'held back' || item.pin === 'changed'
      ? html` <span class="state state-failed">${item.pin}</span>`
      : item.kind !== 'resource' && ` · ${item.pin}`;
  const overridden = item.overrides.length !== 0 && ' · overridden';
  return html`<code>${item.name}</code>${title} <span class="muted">${item.server}${overridden}</span>${pin}`;
};

const entry = (item: CatalogItem): Html => html`<li data-kind="${item.kind}" data-name="${item.name}" data-pin="${item.pin}">
<details>
<summary>${summaryOf(item)}</summary>
${item.description !== undefined && html`<p>${item.description}</p>`}
${facts(item)}
${definitionOf(item)}
</details>
</li>
`;

const section = (items: readonly CatalogItem[], kind: CatalogItem['kind'], heading: string): Html => {
  const own = items.filter((item) => item.kind === kind);
  const id = `catalog-${kind}s`;
  return html`<section aria-labelledby="${id}">
<h2 id="${id}">${heading} <span class="muted">(${own.length})</span></h2>
${own.length === 0 ? html`<p class="muted">None.</p>` : html`<ul class="catalog">\n${own.map(entry)}</ul>`}
</section>
`;
};

const searchForm = (
  profiles: readonly string[],
  profile: string,
  query: string,
): Html => html`<form method="get" action="${consolePath}/catalog" class="catalog-search" role="search">
<label for="catalog-profile">Profile</label>
<select id="catalog-profile" name="profile">${profiles.map(
  (name) => html`<option value="${name}"${name === profile && html` selected`}>${name}</option>`,
)}</select>
<label for="catalog-query">Search</label>
<input id="catalog-query" name="q" type="search" value="${query}">
<button type="submit">Show</button>
</form>`;

export const renderCatalogPage = (source: CatalogSource, params: URLSearchParams, session: ConsoleSession): Html => {
  const profiles = source.profiles();
  const asked = params.get('profile') ?? profiles[0] ?? 'default';
  const profile = profiles.includes(asked) ? asked : (profiles[0] ?? 'default');
  const query = (params.get('q') ?? '').trim().slice(0, 200);
  const items = filterCatalog(source.items(profile), query, query === '' ? new Set() : source.search(profile, query));
  const summary = `${items.length} ${query === '' ? 'items' : `items match “${query}”`} in profile ${profile}`;
  return renderPage({
    title: 'Catalog',
    session,
    current: 'catalog',
    body: html`<h1>Catalog</h1>
${searchForm(profiles, profile, query)}
${!profiles.includes(asked) && html`<p class="error" role="alert">There is no profile “${asked}”: showing ${profile}.</p>`}
<p class="summary" role="status">${summary}</p>
${kinds.map(({ kind, heading }) => section(items, kind, heading))}`,
  });
};
