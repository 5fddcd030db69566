import { describeError } from '@promptyard/core';
import type { Logger } from '@promptyard/core';

export interface ServiceRequest {
  /** For messages: "Serper", "Perplexity". */
  readonly service: string;
  /** The variable that holds the key, named in messages about it. */
  readonly keyVariable: string;
  readonly apiKey: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  readonly fetch: typeof fetch;
  /** Turns a 2xx body into data; JSON.parse unless given (a streamed answer is decoded by its tool). */
  readonly decode?: (text: string, contentType: string) => unknown;
}

/** The parsed JSON body of a 2xx answer, or a message a model and its user can act on. */
export type ServiceOutcome = { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly message: string };

const maxErrorBodyChars = 300;

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export const parseRetryAfter = (value: string | null, now = Date.now()): number | undefined => {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
};

/** The service's own error text: Serper `{message}`, OpenAI-style `{error:{message}}`, else plain text. */
const errorDetail = (text: string): string => {
  let detail = text.trim();
  try {
    const parsed = JSON.parse(text) as { message?: unknown; error?: { message?: unknown } | string };
    if (typeof parsed.message === 'string') detail = parsed.message;
    else if (typeof parsed.error === 'string') detail = parsed.error;
    else if (typeof parsed.error?.message === 'string') detail = parsed.error.message;
  } catch {
    // not JSON: use the text itself
  }
  detail = detail.replace(/\s+/g, ' ');
  return detail.length > maxErrorBodyChars ? `${detail.slice(0, maxErrorBodyChars)}…` : detail;
};

const describeStatus = (request: ServiceRequest, status: number, detail: string, retryAfterMs: number | undefined): string => {
  const { service, keyVariable } = request;
  const quoted = detail === '' ? '' : `: "${detail}"`;
  if (status === 401 || status === 403) return `${service} rejected the API key (HTTP ${status}${quoted}): check ${keyVariable}.`;
  if (status === 402 || /credits/i.test(detail))
    return `${service} says the account is out of credits (HTTP ${status}${quoted}): top it up or set another key in ${keyVariable}.`;
  if (status === 429) {
    const wait = retryAfterMs === undefined ? '' : ` Retry after ${Math.ceil(retryAfterMs / 1000)} s.`;
    return `${service} is rate limiting requests (HTTP 429${quoted}): retry later.${wait}`;
  }
  if (status >= 500) return `${service} had a service error (HTTP ${status}${quoted}): try again later.`;
  return `${service} rejected the request (HTTP ${status}${quoted}).`;
};

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** Never let a key reach a message, whatever an upstream error echoes back. */
export const redact = (text: string, secret: string): string => (secret.length >= 4 ? text.split(secret).join('***') : text);

/**
 * POSTs JSON to a search API within `timeoutMs`, honouring one 429 `Retry-After` that fits in the
 * time left. Failures become readable messages; a cancelled call rethrows the caller's abort reason.
 */
export const postJson = async (request: ServiceRequest): Promise<ServiceOutcome> => {
  const { service, signal, timeoutMs, logger } = request;
  const started = performance.now();
  const deadline = started + timeoutMs;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  const combined = AbortSignal.any([signal, timeout.signal]);
  const fail = (message: string): ServiceOutcome => ({ ok: false, message: redact(message, request.apiKey) });
  const timedOut = (): ServiceOutcome => fail(`${service} did not answer within ${timeoutMs / 1000} s: try again, or a simpler query.`);
  try {
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      let text: string;
      try {
        response = await request.fetch(request.url, {
          method: 'POST',
          headers: { accept: 'application/json', ...request.headers, 'content-type': 'application/json' },
          body: JSON.stringify(request.body),
          signal: combined,
        });
        text = await response.text();
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (timeout.signal.aborted) return timedOut();
        const cause = error instanceof Error && error.cause !== undefined ? ` (${describeError(error.cause)})` : '';
        return fail(`Could not reach ${service} at ${new URL(request.url).origin}: ${describeError(error)}${cause}.`);
      }
      logger.debug(`${service} answered`, {
        status: response.status,
        attempt,
        ms: Math.round(performance.now() - started),
        bytes: text.length,
      });
      if (response.ok) {
        const type = response.headers.get('content-type') ?? 'no content type';
        try {
          return { ok: true, data: request.decode === undefined ? (JSON.parse(text) as unknown) : request.decode(text, type) };
        } catch {
          return fail(
            `${service} answered with something that is not JSON (HTTP ${response.status}, ${type}): it may be down or behind a proxy; try again later.`,
          );
        }
      }
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      if (response.status === 429 && attempt === 1 && retryAfter !== undefined && performance.now() + retryAfter < deadline) {
        logger.info(`${service} rate limited the request; retrying once`, { waitMs: retryAfter });
        try {
          await sleep(retryAfter, combined);
        } catch {
          if (signal.aborted) throw signal.reason;
          return timedOut();
        }
        continue;
      }
      return fail(describeStatus(request, response.status, errorDetail(text), retryAfter));
    }
  } finally {
    clearTimeout(timer);
  }
};
