import { describe, expect, it } from 'vitest';
import { PromptyardError } from '../errors/errors.js';
import type { PromptEntry } from '../contracts/types.js';
import type { PromptSource } from '../contracts/prompt-sources.js';
import type { ResourceProvider } from '../contracts/resources.js';
import type { ToolDefinition } from '../contracts/tools.js';
import { textResult } from '../contracts/tools.js';
import type { ContractCheck } from './checks.js';
import { promptSourceContract } from './prompts.js';
import { resourceProviderContract } from './resources.js';
import { toolProviderContract } from './tools.js';

/** Runs every check; resolves with the names of those that failed, and why. */
const failures = async (checks: readonly ContractCheck[]): Promise<Record<string, string>> => {
  const failed: Record<string, string> = {};
  for (const check of checks)
    await check.run().catch((error: unknown) => (failed[check.name] = error instanceof Error ? error.message : String(error)));
  return failed;
};

const notes = (overrides: Partial<ResourceProvider> = {}): ResourceProvider => ({
  scheme: 'note',
  list: () => [{ uri: 'note://a', name: 'a' }],
  templates: () => [{ uriTemplate: 'note://{name}', name: 'note' }],
  complete: (_template, _variable, value) => ['a', 'b'].filter((name) => name.startsWith(value)),
  read: async (uri) => {
    if (uri !== 'note://a') throw new PromptyardError('RESOURCE_NOT_FOUND', `No note at ${uri}: see resources/list.`);
    return [{ uri, mimeType: 'text/plain', text: 'A' }];
  },
  ...overrides,
});

const echo = (overrides: Partial<ToolDefinition> = {}): ToolDefinition => ({
  name: 'echo',
  description: 'Says it back',
  inputSchema: { type: 'object', properties: { text: { type: 'string', minLength: 1 } }, required: ['text'], additionalProperties: false },
  execute: async (args, { signal }) => {
    if (args['text'] === 'wait') await new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    return textResult(String(args['text']));
  },
  ...overrides,
});

const entry = (name: string): PromptEntry => ({
  name,
  description: `About ${name}`,
  arguments: [{ name: 'who', required: true }],
  origin: { file: `memory:${name}` },
  render: async (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello ${args['who'] ?? ''}` } }] }),
});

describe('the contract checks', () => {
  it('pass a provider that keeps the resource contract, and catch each way of breaking it', async () => {
    const options = {
      readable: [{ uri: 'note://a', text: 'A' }],
      missing: ['note://zzz'],
      completions: [{ uriTemplate: 'note://{name}', variable: 'name', value: 'a', expected: ['a'] }],
    };
    expect(await failures(resourceProviderContract({ ...options, create: () => notes() }))).toEqual({});

    const plainError = await failures(
      resourceProviderContract({ ...options, create: () => notes({ read: async () => Promise.reject(new Error('nope')) }) }),
    );
    expect(plainError['answers a missing resource with RESOURCE_NOT_FOUND (invalid params for the client)']).toMatch(
      /should throw a PromptyardError/,
    );

    const wrongScheme = await failures(resourceProviderContract({ ...options, create: () => notes({ scheme: 'note://' }) }));
    expect(wrongScheme['declares a scheme, and lists resources and templates of that scheme']).toMatch(/scheme/);

    // A read that ignores its signal never stops.
    const deaf = await failures(
      resourceProviderContract({
        ...options,
        slow: 'note://slow',
        cancelWithinMs: 50,
        create: () => notes({ read: (uri) => new Promise((resolve) => setTimeout(() => resolve([{ uri, text: 'late' }]), 500)) }),
      }),
    );
    expect(deaf['stops reading when the request is cancelled']).toMatch(/did not stop within 50 ms/);
  });

  it('pass a tool provider that keeps the tool contract, and catch each way of breaking it', async () => {
    const options = {
      calls: [{ name: 'echo', arguments: { text: 'hi' }, text: 'hi' }],
      invalid: [{ name: 'echo', arguments: {}, text: /"text" is required/ }],
      slow: { name: 'echo', arguments: { text: 'wait' } },
    };
    expect(await failures(toolProviderContract({ ...options, create: () => ({ tools: [echo()] }) }))).toEqual({});

    const badName = await failures(toolProviderContract({ ...options, create: () => ({ tools: [echo({ name: 'say it' })] }) }));
    expect(badName['defines tools with valid names, descriptions and input schemas']).toMatch(/tool name "say it"/);

    const deaf = await failures(
      toolProviderContract({
        ...options,
        cancelWithinMs: 50,
        create: () => ({ tools: [echo({ execute: () => new Promise((resolve) => setTimeout(() => resolve(textResult('late')), 500)) })] }),
      }),
    );
    expect(deaf['stops a call when the client cancels it']).toMatch(/did not stop within 50 ms/);
  });

  it('pass a prompt source that keeps the prompt contract, and catch each way of breaking it', async () => {
    const source = (entries: readonly PromptEntry[]): PromptSource => ({ id: 'memory', load: async () => entries });
    const options = { renders: [{ name: 'greet', arguments: { who: 'Ada' }, text: 'Hello Ada' }], requireArguments: ['greet'] };
    expect(await failures(promptSourceContract({ ...options, create: () => source([entry('greet')]) }))).toEqual({});

    const twice = await failures(promptSourceContract({ ...options, create: () => source([entry('greet'), entry('greet')]) }));
    expect(twice['loads prompts with unique names, descriptions and well-formed arguments']).toMatch(/loaded twice/);

    const optional = await failures(
      promptSourceContract({ ...options, create: () => source([{ ...entry('greet'), arguments: [{ name: 'who', required: false }] }]) }),
    );
    expect(optional['refuses to render a prompt without its required arguments']).toMatch(/should have failed/);
  });
});
