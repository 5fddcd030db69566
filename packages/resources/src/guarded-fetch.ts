import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { PromptyardError } from '@promptyard/core';
import { checkUrl, guardedLookup, refused } from './ssrf-guard.js';
import type { AddressCheck } from './ssrf-guard.js';

export interface GuardedFetchOptions {
  readonly check: AddressCheck;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

export interface FetchedPage {
  /** After redirects. */
  readonly url: string;
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
}

const once = (url: URL, options: GuardedFetchOptions, signal: AbortSignal): Promise<{ response: IncomingMessage; body: Buffer }> =>
  new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: 'GET',
        headers: { 'user-agent': 'promptyard', accept: 'text/html, text/markdown, text/plain;q=0.9, */*;q=0.1', ...options.headers },
        lookup: guardedLookup(options.check, url.hostname) as never,
        signal,
      },
      (response) => {
        const declared = Number(response.headers['content-length'] ?? '0');
        const tooLarge = (): PromptyardError =>
          new PromptyardError('RESPONSE_TOO_LARGE', `${url.href} is larger than ${options.maxBytes} bytes ([resources.url] max_bytes).`, {
            data: { url: url.href },
          });
        if (declared > options.maxBytes) {
          response.destroy();
          return reject(tooLarge());
        }
        const chunks: Buffer[] = [];
        let total = 0;
        response.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > options.maxBytes) {
            response.destroy();
            reject(tooLarge());
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve({ response, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ESSRF') reject(refused(url.href, error.message.replace(/^.* resolves to /, 'a host name that resolves to ')));
      else if (signal.aborted)
        reject(
          new PromptyardError('TIMEOUT', `${url.href} did not answer within ${options.timeoutMs} ms ([resources.url] timeout_ms).`, {
            cause: error,
          }),
        );
      else reject(new PromptyardError('SOURCE_ERROR', `Could not fetch ${url.href}: ${error.message}.`, { cause: error }));
    });
    request.end();
  });

/** GET with the SSRF guard on every hop, redirects followed by hand, a deadline and a byte cap. */
export const guardedFetch = async (raw: string, options: GuardedFetchOptions): Promise<FetchedPage> => {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
  let url = checkUrl(raw, options.check);
  for (let hop = 0; ; hop++) {
    const { response, body } = await once(url, options, signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location !== undefined) {
      if (hop >= options.maxRedirects)
        throw new PromptyardError('SOURCE_ERROR', `${raw} redirects more than ${options.maxRedirects} times.`);
      url = checkUrl(new URL(location, url).href, options.check);
      continue;
    }
    return { url: url.href, status, contentType: String(response.headers['content-type'] ?? ''), body };
  }
};
