import { PromptyardError } from '@promptyard/core';
import type { ResourceContents, ResourceProvider } from '@promptyard/core';
import { guardedFetch } from './guarded-fetch.js';
import { checkUrl, createAddressCheck } from './ssrf-guard.js';
import type { AddressCheck } from './ssrf-guard.js';

export const jinaReaderUrl = 'https://r.jina.ai';

export interface UrlOptions {
  /** `jina`: the page is read by Jina Reader; `local`: fetched here (behind the SSRF guard) and converted. */
  readonly mode: 'jina' | 'local';
  readonly readerUrl: string;
  readonly apiKey?: string | undefined;
  /** Reader headers such as `X-Return-Format`, `X-Timeout`, `X-No-Cache`. */
  readonly readerHeaders?: Readonly<Record<string, string>>;
  /** Hosts and CIDRs exempt from the SSRF guard in `local` mode. */
  readonly allow: readonly string[];
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** Content types (prefixes) accepted in `local` mode. */
  readonly contentTypes: readonly string[];
  readonly cacheTtlMs: number;
  readonly maxRedirects?: number;
}

const scheme = 'url';
const cacheEntries = 100;

interface ReaderError {
  readonly code?: number;
  readonly name?: string;
  readonly message?: string;
  readonly readableMessage?: string;
  readonly retryAfter?: number;
}

/** The reader's errors as words a user can act on (they become the resource's text, not a protocol error). */
const describeReaderError = (target: string, status: number, body: string, retryAfterHeader: string | null): string => {
  let parsed: ReaderError = {};
  try {
    parsed = JSON.parse(body) as ReaderError;
  } catch {
    // a non-JSON error page
  }
  const retryAfter = parsed.retryAfter ?? (retryAfterHeader === null ? undefined : Number(retryAfterHeader));
  const what = parsed.readableMessage ?? parsed.message ?? (body.trim().slice(0, 300) || `HTTP ${status}`);
  const advice =
    status === 429
      ? `Jina Reader is rate limiting these requests${retryAfter === undefined || Number.isNaN(retryAfter) ? '' : `; retry after ${retryAfter} s`}. A key (JINA_API_KEY) raises the limit.`
      : status === 401 || status === 403
        ? 'Check JINA_API_KEY.'
        : status === 402
          ? 'The Jina account has no balance left.'
          : 'Try again later, or set [resources.url] mode = "local" to fetch the page directly.';
  return `Could not read ${target} through Jina Reader (HTTP ${status}${parsed.name === undefined ? '' : `, ${parsed.name}`}): ${what}\n\n${advice}\n`;
};

/** The page as Jina Reader renders it; its errors become text that says what to do. */
const viaJina = async (options: UrlOptions, target: string, signal: AbortSignal | undefined): Promise<string> => {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const headers: Record<string, string> = { accept: 'text/plain', ...options.readerHeaders };
  if (options.apiKey !== undefined) headers['authorization'] = `Bearer ${options.apiKey}`;
  let response: Response;
  try {
    response = await fetch(`${options.readerUrl.replace(/\/+$/, '')}/${target}`, {
      headers,
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    });
  } catch (error) {
    if (timeout.aborted)
      throw new PromptyardError('TIMEOUT', `Jina Reader did not answer within ${options.timeoutMs} ms for ${target}.`, { cause: error });
    throw new PromptyardError(
      'SOURCE_ERROR',
      `Could not reach Jina Reader at ${options.readerUrl}: ${error instanceof Error ? error.message : String(error)}. Check JINA_READER_URL, or set mode = "local".`,
      { cause: error },
    );
  }
  const body = await response.text();
  if (Buffer.byteLength(body) > options.maxBytes) {
    return `${Buffer.from(body).subarray(0, options.maxBytes).toString('utf8')}\n\n[cut at ${options.maxBytes} bytes ([resources.url] max_bytes)]`;
  }
  if (!response.ok) return describeReaderError(target, response.status, body, response.headers.get('retry-after'));
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    const envelope = JSON.parse(body) as { data?: { title?: string; content?: string; url?: string } };
    const data = envelope.data ?? {};
    return `${data.title === undefined ? '' : `# ${data.title}\n\n`}${data.content ?? ''}`;
  }
  return body;
};

/** The page fetched from here (every hop's address checked) and converted to Markdown by its content type. */
const viaLocal = async (options: UrlOptions, check: AddressCheck, target: string, signal: AbortSignal | undefined): Promise<string> => {
  const page = await guardedFetch(target, {
    check,
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxBytes,
    maxRedirects: options.maxRedirects ?? 5,
    ...(signal === undefined ? {} : { signal }),
  });
  // A page that is not there is a resource that is not there: the client hears "not found", not "failed".
  if (page.status === 404 || page.status === 410)
    throw new PromptyardError('RESOURCE_NOT_FOUND', `${page.url} answered HTTP ${page.status}: there is no page at that address.`, {
      data: { url: page.url, status: page.status },
    });
  if (page.status >= 400)
    throw new PromptyardError('SOURCE_ERROR', `${page.url} answered HTTP ${page.status}.`, {
      data: { url: page.url, status: page.status },
    });
  const type = page.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!options.contentTypes.some((allowed) => type.startsWith(allowed))) {
    throw new PromptyardError(
      'SOURCE_ERROR',
      `${page.url} is ${type || 'of no declared type'}, which is not converted (allowed: ${options.contentTypes.join(', ')}; [resources.url] content_types).`,
    );
  }
  const text = page.body.toString('utf8');
  if (type === 'text/html' || type === 'application/xhtml+xml') {
    // linkedom, Readability and Turndown load on the first local conversion, not at start-up.
    const { htmlToMarkdown } = await import('./html-to-markdown.js');
    const { title, markdown } = htmlToMarkdown(text, page.url);
    return `# ${title}\n\nSource: ${page.url}\n\n${markdown}\n`;
  }
  if (type.includes('json')) return `\`\`\`json\n${text}\n\`\`\`\n`;
  return text;
};

/**
 * `url:{+url}`: a web page as Markdown, through Jina Reader or fetched and converted locally, with
 * a small in-memory TTL cache.
 */
export const createUrlProvider = (options: UrlOptions): ResourceProvider => {
  const check = createAddressCheck({ allow: options.allow });
  const cache = new Map<string, { readonly at: number; readonly text: string }>();
  return {
    scheme,
    list: () => [],
    templates: () => [
      {
        uriTemplate: `${scheme}:{+url}`,
        name: 'url',
        title: 'A web page as Markdown',
        description: 'url:https://example.com/page',
        mimeType: 'text/markdown',
      },
    ],
    read: async (uri, signal): Promise<ResourceContents[]> => {
      const target = uri.slice(scheme.length + 1);
      // Both modes refuse non-http(s) targets up front; local mode checks addresses on every hop too.
      if (options.mode === 'jina') checkUrl(target, { isAllowedHost: () => true, refusal: () => undefined });
      const key = `${options.mode} ${target}`;
      const hit = cache.get(key);
      if (hit !== undefined && Date.now() - hit.at < options.cacheTtlMs) return [{ uri, mimeType: 'text/markdown', text: hit.text }];
      const text = options.mode === 'jina' ? await viaJina(options, target, signal) : await viaLocal(options, check, target, signal);
      if (cache.size >= cacheEntries) cache.delete(cache.keys().next().value as string);
      cache.set(key, { at: Date.now(), text });
      return [{ uri, mimeType: 'text/markdown', text }];
    },
  };
};
