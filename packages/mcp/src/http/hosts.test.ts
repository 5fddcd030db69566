import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isWildcardHost } from './hosts.js';

describe('bind hosts', () => {
  it('knows loopback names and addresses', () => {
    expect(['127.0.0.1', '127.0.1.1', '::1', '[::1]', 'localhost'].map(isLoopbackHost)).toEqual([true, true, true, true, true]);
    expect(['0.0.0.0', '192.168.1.20', 'example.com', '::'].map(isLoopbackHost)).toEqual([false, false, false, false]);
  });

  it('knows wildcard binds', () => {
    expect(['0.0.0.0', '::', '[::]'].map(isWildcardHost)).toEqual([true, true, true]);
    expect(['127.0.0.1', '192.168.1.20', '::1'].map(isWildcardHost)).toEqual([false, false, false]);
  });
});
