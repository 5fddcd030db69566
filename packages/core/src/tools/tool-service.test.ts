import { describe, expect, it } from 'vitest';
import { createCatalog } from '../catalog/catalog.js';
import { createLogger } from '../logging/logger.js';
import { createToolService } from './tool-service.js';
import type { ToolDefinition } from '../contracts/tools.js';
import { textResult } from '../contracts/tools.js';

const echo: ToolDefinition = {
  name: 'echo',
  description: 'Echoes its input',
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', minLength: 1 },
      times: { type: 'integer', minimum: 1, maximum: 3 },
      mode: { type: 'string', enum: ['loud', 'quiet'] },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
    },
    required: ['text'],
    additionalProperties: false,
  },
  execute: async (args) => textResult(String(args['text']).repeat(Number(args['times'] ?? 1))),
};

const waits: ToolDefinition = {
  name: 'wait',
  description: 'Waits until aborted',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  execute: (_args, { signal }) =>
    new Promise((_, reject) => {
      signal.addEventListener('abort', () => reject(new Error(`aborted: ${String(signal.reason)}`)));
    }),
};

const setup = (options: { timeoutMs?: number; maxResponseBytes?: number } = {}) => {
  const catalog = createCatalog<ToolDefinition>({ kind: 'tool' });
  catalog.owner('test').replace([echo, waits]);
  const lines: string[] = [];
  const service = createToolService({
    catalog,
    logger: createLogger({ write: (line) => lines.push(line) }),
    timeoutMs: options.timeoutMs ?? 1000,
    maxResponseBytes: options.maxResponseBytes ?? 1000,
  });
  return { service, lines };
};

describe('createToolService', () => {
  it('runs a tool and logs its name and argument lengths only', async () => {
    const { service, lines } = setup();
    expect(await service.call('echo', { text: 'secret words', times: 2 })).toEqual({
      content: [{ type: 'text', text: 'secret wordssecret words' }],
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(lines.join('\n')).toMatch(/tools\/call tool=echo args="text:12,times:1" outcome=ok/);
    expect(lines.join('\n')).not.toContain('secret');
  });

  it('refuses unknown tools with suggestions', async () => {
    const { service } = setup();
    await expect(service.call('ecko', {})).rejects.toMatchObject({
      code: 'TOOL_NOT_FOUND',
      message: expect.stringMatching(/Did you mean "echo"/),
    });
  });

  it('refuses a tool unlisted for want of a setting with the message naming that setting', async () => {
    const catalog = createCatalog<ToolDefinition>({ kind: 'tool' });
    const service = createToolService({
      catalog,
      logger: createLogger({ write: () => {} }),
      timeoutMs: 1000,
      maxResponseBytes: 1000,
      unlisted: [{ name: 'search', setting: 'SEARCH_KEY', message: 'search is not enabled: set SEARCH_KEY to list it.' }],
    });
    await expect(service.call('search', {})).rejects.toMatchObject({
      code: 'TOOL_NOT_FOUND',
      message: 'search is not enabled: set SEARCH_KEY to list it.',
      data: { name: 'search', setting: 'SEARCH_KEY' },
    });
    // Other names are still unknown, and a listed tool of the same name wins.
    await expect(service.call('serch', {})).rejects.toMatchObject({ message: expect.stringMatching(/^Unknown tool "serch"\./) });
    catalog.owner('test').replace([{ ...echo, name: 'search' }]);
    expect(await service.call('search', { text: 'x' })).toEqual({ content: [{ type: 'text', text: 'x' }] });
  });

  it('answers invalid arguments with an isError result listing every problem', async () => {
    const { service } = setup();
    const result = await service.call('echo', { times: 5, mode: 'shout', tags: ['a', 'b', 'c'], txt: 'x' });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toBe(
      'Invalid arguments for tool "echo": "text" is required; "times" must be from 1 to 3; "mode" must be one of "loud" or "quiet"; "tags" may hold at most 2 items; "txt" is not an argument of this tool (did you mean "text"?).',
    );
    expect((await service.call('echo', { text: 3 })).content[0]?.text).toMatch(/"text" must be a string, not a number/);
    expect((await service.call('echo', { text: 'a', times: 1.5 })).content[0]?.text).toMatch(/"times" must be a whole number/);
  });

  it('aborts the tool at the deadline and on client cancellation', async () => {
    const { service } = setup({ timeoutMs: 50 });
    const timedOut = await service.call('wait', {});
    expect(timedOut).toEqual({
      content: [{ type: 'text', text: expect.stringMatching(/did not finish within 0.05 s \(\[timeouts\] tool_ms\)/) }],
      isError: true,
    });
    const controller = new AbortController();
    const pending = service.call('wait', {}, controller.signal);
    controller.abort();
    expect(await pending).toMatchObject({ isError: true, content: [{ text: 'Tool "wait" was cancelled by the client.' }] });
  });

  it('caps oversized output with a note', async () => {
    const { service } = setup({ maxResponseBytes: 10 });
    const result = await service.call('echo', { text: 'é'.repeat(20) });
    expect(result.content.map((item) => item.text)).toEqual(['ééééé', '[output cut at 10 bytes ([limits] max_response_bytes)]']);
  });
});
