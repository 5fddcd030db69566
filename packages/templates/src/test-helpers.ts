import { expect } from 'vitest';
import { PromptyardError } from '@promptyard/core';

/** Runs `action` and returns the `PromptyardError` (code TEMPLATE_ERROR) it throws or rejects with. */
export const templateErrorOf = async (action: () => unknown): Promise<PromptyardError> => {
  try {
    await action();
  } catch (error) {
    expect(error).toBeInstanceOf(PromptyardError);
    expect((error as PromptyardError).code).toBe('TEMPLATE_ERROR');
    return error as PromptyardError;
  }
  throw new Error('expected a TEMPLATE_ERROR');
};
