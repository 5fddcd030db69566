import { closestNames, formatList, PromptyardError } from '@promptyard/core';
import type { ResourceContents, ResourceInfo, ResourceProvider } from '@promptyard/core';
import { createDiskCache } from './disk-cache.js';
import type { CacheEntry } from './disk-cache.js';
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

const looksLikeHtml = (contentType: string, body: string): boolean =>
  /\btext\/html\b|\bapplication\/xhtml\+xml\b/i.test(contentType) || /^\s*(<!doctype html|<html[\s>])/i.test(body.slice(0, 512));

/** Reads at most `maxBytes` of a body; longer bodies are an error rather than a silently cut file. */
const readCapped = async (response: Response, maxBytes: number, url: string): Promise<string> => {
  const declared = Number(response.headers.get('content-length') ?? '0');
  const tooLarge = (): PromptyardError =>
    new PromptyardError(
      'RESPONSE_TOO_LARGE',
      `${url} is larger than ${maxBytes} bytes: raise [resources.doc] max_bytes if it is really wanted.`,
      { data: { url } },
    );
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
};

/**
 * `doc://{library}` and `doc://{library}/full`: a library's llms.txt (or llms-full.txt), fetched with
 * ETag revalidation and kept in a disk cache; a stale copy is served, with a note, when the site fails.
 */
export const createDocProvider = (options: DocOptions): ResourceProvider => {
  const libraries = mergeLibraries(options.libraries ?? {});
  const cache = createDiskCache(options.cacheDir);
  const names = (): string[] => [...libraries.keys()].sort();

  const resolve = (uri: string): { name: string; url: string } => {
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
      const close = closestNames(name, names());
      throw new PromptyardError(
        'RESOURCE_NOT_FOUND',
        `Unknown library "${name}"${close.length > 0 ? `; did you mean ${formatList(close.map((candidate) => `doc://${candidate}`))}?` : ''} ` +
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

  const fetchEntry = async (url: string, cached: CacheEntry | undefined, signal: AbortSignal | undefined): Promise<CacheEntry> => {
    const headers: Record<string, string> = { accept: 'text/markdown, text/plain;q=0.9, */*;q=0.1', 'user-agent': 'promptyard' };
    if (cached?.etag !== undefined) headers['if-none-match'] = cached.etag;
    if (cached?.lastModified !== undefined) headers['if-modified-since'] = cached.lastModified;
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const response = await fetch(url, {
      headers,
      redirect: 'follow',
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    });
    if (response.status === 304 && cached !== undefined) {
      await response.body?.cancel();
      return { ...cached, fetchedAt: Date.now() };
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new PromptyardError('SOURCE_ERROR', `${url} answered HTTP ${response.status}: check the URL under [resources.doc.libraries].`, {
        data: { url, status: response.status },
      });
    }
    const contentType = response.headers.get('content-type') ?? '';
    const body = await readCapped(response, options.maxBytes, url);
    if (looksLikeHtml(contentType, body)) {
      throw new PromptyardError(
        'SOURCE_ERROR',
        `${url} returned an HTML page, not an llms.txt: the URL is probably wrong (a soft 404 or a site's app shell); fix it under [resources.doc.libraries].`,
        { data: { url } },
      );
    }
    const etag = response.headers.get('etag');
    const lastModified = response.headers.get('last-modified');
    return {
      url,
      body,
      fetchedAt: Date.now(),
      contentType,
      ...(etag === null ? {} : { etag }),
      ...(lastModified === null ? {} : { lastModified }),
    };
  };

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
      const { url } = resolve(uri);
      const cached = await cache.get(url);
      if (cached !== undefined && Date.now() - cached.fetchedAt < options.ttlMs)
        return [{ uri, mimeType: 'text/markdown', text: cached.body }];
      let entry: CacheEntry;
      try {
        entry = await fetchEntry(url, cached, signal);
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
