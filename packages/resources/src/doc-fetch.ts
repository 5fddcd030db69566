/** Fetching a library's llms.txt for `doc://`: conditional requests, a byte cap, and a check that the answer is no HTML page. */
import { PromptyardError } from '@promptyard/core';
import type { CacheEntry } from './disk-cache.js';

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

/** Fetches a library's file, revalidating `cached` by ETag or date; refuses error statuses, oversized bodies and HTML pages. */
export const fetchEntry = async (
  url: string,
  cached: CacheEntry | undefined,
  signal: AbortSignal | undefined,
  options: { readonly maxBytes: number; readonly timeoutMs: number },
): Promise<CacheEntry> => {
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
