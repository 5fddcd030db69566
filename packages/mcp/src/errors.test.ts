import { describe, expect, it } from 'vitest';
import { PromptyardError } from '@promptyard/core';
import { toolErrorResult } from './errors.js';

describe('toolErrorResult', () => {
  it('turns failures a model should read into isError results, an unapproved call among them', () => {
    const declined = new PromptyardError('APPROVAL_DECLINED', 'The call of tool "deploy" was not made: it was declined.');
    expect(toolErrorResult(declined)).toEqual({ content: [{ type: 'text', text: declined.message }], isError: true });
    expect(toolErrorResult(new PromptyardError('BACKEND_ERROR', 'failed'))).toMatchObject({ isError: true });
  });

  it('leaves bad requests and unexpected failures to the protocol error mapping', () => {
    expect(toolErrorResult(new PromptyardError('TOOL_NOT_FOUND', 'no such tool'))).toBeUndefined();
    expect(toolErrorResult(new Error('boom'))).toBeUndefined();
  });
});
