import { closestNames, didYouMean, formatList, PromptyardError } from '@promptyard/core';
import type { ResourceContents, ResourceInfo, ResourceProvider } from '@promptyard/core';
import { createDiskCache } from './disk-cache.js';
import type { CacheEntry } from './disk-cache.js';
import { fetchEntry } from './doc-fetch.js';
import { builtinLibraries } from './libraries.js';
import type { DocLibrary } from './libraries.js';

export interface DocOptions {
  /** Name → llms.txt URL; adds to and overrides the built-in map. A `<name>/full` key sets its llms-full.txt. */
  readonly libraries?: Readonly<Record<string, string>>;
  /** Where fetched files are kept between runs. */
  readonly cacheDir: string;
  /** How long a fetched file is served without asking the site again. */
  readonly ttlMs: number;
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

const scheme = 'doc';

const mergeLibraries = (configured: Readonly<Record<string, string>>): Map<string, DocLibrary> => {
  const libraries = new Map<string, DocLibrary>(Object.entries(builtinLibraries));
  for (const [name, url] of Object.entries(configured)) {
    if (name.endsWith('/full')) continue;
    libraries.set(name, { url });
  }
  for (const [key, url] of Object.entries(configured)) {
    if (!key.endsWith('/full')) continue;
    const name = key.slice(0, -'/full'.length);
    const library = libraries.get(name);
    if (library !== undefined) libraries.set(name, { url: library.url, fullUrl: url });
  }
  return libraries;
};

/** `doc://a` or `doc://b`, the way the hint shows library names. */
const asDocUris = (names: readonly string[]): string => formatList(names.map((candidate) => `doc://${candidate}`));

/** The library a `doc://` URI names and the URL of its file; an unknown name is refused with the closest known ones. */
const resolve = (libraries: ReadonlyMap<string, DocLibrary>, uri: string): { name: string; url: string } => {
  const rest = uri.startsWith(`${scheme}://`) ? uri.slice(scheme.length + 3) : '';
  const full = rest.endsWith('/full');
  let name = full ? rest.slice(0, -'/full'.length) : rest;
  try {
    name = decodeURIComponent(name);
  } catch {
    // an undecodable name is simply unknown
  }
  const library = libraries.get(name);
  if (library === undefined) {
    const close = closestNames(name, [...libraries.keys()].sort());
    throw new PromptyardError(
      'RESOURCE_NOT_FOUND',
      `Unknown library "${name}"${didYouMean(close, 'clause', asDocUris)} ` +
        `Add it under [resources.doc.libraries] in promptyard.toml (name = "https://…/llms.txt"); resources/list shows the known ones.`,
      { data: { uri, suggestions: close } },
    );
  }
  if (full && library.fullUrl === undefined) {
    throw new PromptyardError(
      'RESOURCE_NOT_FOUND',
      `No llms-full.txt is known for "${name}": read doc://${name}, or set "${name}/full" under [resources.doc.libraries].`,
      { data: { uri } },
    );
  }
  return { name, url: full ? (library.fullUrl as string) : library.url };
};

/**
 * `doc://{library}` and `doc://{library}/full`: a library's llms.txt (or llms-full.txt), fetched with
 * ETag revalidation and kept in a disk cache; a stale copy is served, with a note, when the site fails.
 */
export const createDocProvider = (options: DocOptions): ResourceProvider => {
  const libraries = mergeLibraries(options.libraries ?? {});
  const cache = createDiskCache(options.cacheDir);
  const names = (): string[] => [...libraries.keys()].sort();

  return {
    scheme,
    list: (): ResourceInfo[] =>
      names().map((name) => ({
        uri: `${scheme}://${encodeURIComponent(name)}`,
        name: `doc:${name}`,
        title: `${name} documentation (llms.txt)`,
        mimeType: 'text/markdown',
      })),
    templates: () => [
      { uriTemplate: `${scheme}://{library}`, name: 'doc', title: "A library's documentation index (llms.txt)", mimeType: 'text/markdown' },
      {
        uriTemplate: `${scheme}://{library}/full`,
        name: 'doc-full',
        title: "A library's whole documentation (llms-full.txt)",
        mimeType: 'text/markdown',
      },
    ],
    complete: (uriTemplate, variable, value) => {
      if (variable !== 'library') return [];
      const prefix = value.toLowerCase();
      const full = uriTemplate.endsWith('/full');
      return names().filter((name) => name.toLowerCase().startsWith(prefix) && (!full || libraries.get(name)?.fullUrl !== undefined));
    },
    read: async (uri, signal): Promise<ResourceContents[]> => {
      const { url } = resolve(libraries, uri);
      const cached = await cache.get(url);
      if (cached !== undefined && Date.now() - cached.fetchedAt < options.ttlMs)
        return [{ uri, mimeType: 'text/markdown', text: cached.body }];
      let entry: CacheEntry;
      try {
        entry = await fetchEntry(url, cached, signal, options);
      } catch (error) {
        // A site that is down should not take its docs away: serve the last copy, and say so.
        if (cached === undefined || signal?.aborted === true) throw error;
        const age = Math.round((Date.now() - cached.fetchedAt) / 60_000);
        return [
          {
            uri,
            mimeType: 'text/markdown',
            text: `> Note: ${url} could not be reached (${error instanceof Error ? error.message : String(error)}); this copy is ${age} min old.\n\n${cached.body}`,
          },
        ];
      }
      await cache.set(entry);
      return [{ uri, mimeType: 'text/markdown', text: entry.body }];
    },
  };
};
