import { describe, expect, it } from 'vitest';
import { isPromptyardError } from '../errors/errors.js';
import type { ResourceProvider } from '../contracts/resources.js';
import { createResourceService } from './resource-service.js';

/** A provider whose reads of `slow:` never finish on their own: they end only when their signal aborts. */
const slowProvider = (seen: AbortSignal[]): ResourceProvider => ({
  scheme: 'slow',
  list: () => [],
  templates: () => [],
  read: (_uri, signal) => {
    if (signal !== undefined) seen.push(signal);
    return new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true }));
  },
});

const fastProvider: ResourceProvider = {
  scheme: 'fast',
  list: () => [],
  templates: () => [],
  read: async (uri) => [{ uri, text: 'hello' }],
};

describe('createResourceService', () => {
  it('fails a read past its timeout with TIMEOUT and aborts the provider, naming the setting', async () => {
    const signals: AbortSignal[] = [];
    const service = createResourceService([slowProvider(signals), fastProvider], { timeoutMs: 30 });
    const failure = await service.read('slow://page').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isPromptyardError(failure) && failure.code).toBe('TIMEOUT');
    expect((failure as Error).message).toMatch(/slow:\/\/page.*30 ms.*\[timeouts\] resource_ms/);
    expect(signals[0]?.aborted).toBe(true);
    await expect(service.read('fast://x')).resolves.toEqual([{ uri: 'fast://x', text: 'hello' }]);
  });

  it('ends a read when the caller gives up, before any timeout', async () => {
    const signals: AbortSignal[] = [];
    const service = createResourceService([slowProvider(signals)], { timeoutMs: 60_000 });
    const caller = new AbortController();
    const reading = service.read('slow://page', caller.signal);
    caller.abort(new Error('client cancelled'));
    await expect(reading).rejects.toThrow('client cancelled');
    expect(signals[0]?.aborted).toBe(true);
  });

  it('names the served schemes for a URI no provider serves', async () => {
    const service = createResourceService([fastProvider]);
    await expect(service.read('other://x')).rejects.toThrow(/serves fast:\/\/ URIs/);
  });
});
