import { describe, expect, it, vi } from 'vitest';
import { PromptyardError, isInvalidParams, isPromptyardError } from './errors.js';
import type * as Errors from './errors.js';

describe('PromptyardError', () => {
  it('is recognised across copies of the package, by brand', async () => {
    // A second evaluation of the module is a second copy of the class, as a provider with its own
    // @promptyard/core has.
    vi.resetModules();
    const copy = './errors.js?copy';
    const other = (await import(copy)) as typeof Errors;
    expect(other.PromptyardError).not.toBe(PromptyardError);
    const foreign = new other.PromptyardError('RESOURCE_NOT_FOUND', 'No note "x".', { data: { uri: 'note://x' } });
    expect(isPromptyardError(foreign)).toBe(true);
    expect(foreign instanceof PromptyardError).toBe(true);
    expect(other.isPromptyardError(new PromptyardError('TIMEOUT', 'slow'))).toBe(true);
    expect(isInvalidParams(foreign.code)).toBe(true);
  });

  it('does not mistake other errors or look-alikes for its own', () => {
    expect(isPromptyardError(new Error('x'))).toBe(false);
    expect(isPromptyardError({ code: 'TIMEOUT', message: 'x' })).toBe(false);
    expect(isPromptyardError(null)).toBe(false);
    expect(new Error('x') instanceof PromptyardError).toBe(false);
    const error = new PromptyardError('TEMPLATE_ERROR', 'bad', { cause: new Error('root'), data: { line: 3 } });
    expect(error).toMatchObject({ name: 'PromptyardError', code: 'TEMPLATE_ERROR', message: 'bad', data: { line: 3 } });
    expect(error.cause).toBeInstanceOf(Error);
  });
});
