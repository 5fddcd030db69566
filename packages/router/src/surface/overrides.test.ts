import { describe, expect, it } from 'vitest';
import { injectArguments, layerOverrides, overridePrompt, overrideTool } from './overrides.js';

describe('overrides', () => {
  it('lay a profile’s over a server’s field by field, merging annotations and fixed arguments', () => {
    const layered = layerOverrides(
      { tools: { a: { name: 'b', annotations: { readOnlyHint: true }, arguments: { x: 1 } } }, prompts: { p: { name: 'q', title: 'Q' } } },
      {
        tools: { a: { description: 'D', annotations: { idempotentHint: true }, arguments: { y: 2 } } },
        prompts: { p: { description: 'P' } },
      },
    );
    expect(layered.tools['a']).toEqual({
      name: 'b',
      description: 'D',
      annotations: { readOnlyHint: true, idempotentHint: true },
      arguments: { x: 1, y: 2 },
    });
    expect(layered.prompts['p']).toEqual({ name: 'q', title: 'Q', description: 'P' });
  });

  it('take no key from Object.prototype', () => {
    const layered = layerOverrides({ tools: {}, prompts: {} }, { tools: { constructor: { description: 'c' } }, prompts: {} });
    expect(layered.tools['constructor']).toEqual({ description: 'c' });
  });

  it('remove fixed arguments from the schema and lay them over the call’s', () => {
    const tool = overrideTool(
      { name: 't', inputSchema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['a', 'b'] } },
      { arguments: { a: 'fixed' }, title: 'T' },
    );
    expect(tool).toEqual({
      name: 't',
      title: 'T',
      inputSchema: { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] },
    });
    expect(injectArguments({ a: 'mine', b: 'x' }, { a: 'fixed' })).toEqual({ a: 'fixed', b: 'x' });
    expect(injectArguments(undefined, undefined)).toBeUndefined();
    expect(overridePrompt({ name: 'p' }, { name: 'q', description: 'd' })).toEqual({ name: 'q', description: 'd' });
  });
});
