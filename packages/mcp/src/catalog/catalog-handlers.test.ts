import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import {
  createCatalog,
  createLogger,
  createPromptService,
  createResourceService,
  createToolService,
  PromptyardError,
  textResult,
} from '@promptyard/core';
import type * as Core from '@promptyard/core';
import type { PromptEntry, ResourceProvider, ToolDefinition } from '@promptyard/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCatalogHandlers } from './catalog-handlers.js';
import { createMcpServerBlueprint } from '../server/blueprint.js';

const tool = (name: string): ToolDefinition => ({
  name,
  description: `The ${name} tool`,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  annotations: { readOnlyHint: true },
  execute: async (args) => textResult(`${name}: ${String(args['text'])}`),
});

const prompt = (name: string): PromptEntry => ({
  name,
  description: `About ${name}`,
  arguments: [{ name: 'topic', required: true, enum: ['cats', 'dogs'] }],
  origin: { file: `/prompts/${name}.md`, line: 1 },
  render: async (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: `${name} on ${args['topic'] ?? ''}` } }] }),
});

/** A provider as a third-party resource package would write it. */
const notes: ResourceProvider = {
  scheme: 'note',
  list: () => [{ uri: 'note://a', name: 'a', mimeType: 'text/plain' }],
  templates: () => [{ uriTemplate: 'note://{id}', name: 'note' }],
  complete: (_template, _variable, value) => ['alpha', 'beta'].filter((name) => name.startsWith(value)),
  read: async (uri) => {
    if (uri === 'note://missing') throw new PromptyardError('RESOURCE_NOT_FOUND', 'No note "missing".', { data: { uri } });
    return [{ uri, mimeType: 'text/plain', text: `content of ${uri}` }];
  },
};

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const connect = async (options: { readonly resources?: readonly ResourceProvider[]; readonly live?: boolean } = {}) => {
  const logger = createLogger({ level: 'debug', write: () => {} });
  const promptCatalog = createCatalog<PromptEntry>({ kind: 'prompt' });
  promptCatalog.owner('test').replace([prompt('review'), prompt('explain')]);
  const prompts = createPromptService({
    catalog: promptCatalog,
    logger,
    limits: { maxArgumentChars: 100, maxResponseBytes: 1000 },
    timeoutMs: 1000,
  });
  const catalog = createCatalog<ToolDefinition>({ kind: 'tool' });
  const owner = catalog.owner('test');
  owner.replace([tool('alpha'), tool('beta')]);
  const tools = createToolService({ catalog, logger, timeoutMs: 1000, maxResponseBytes: 1000 });
  const resources = options.resources === undefined ? undefined : createResourceService(options.resources);
  const blueprint = await createMcpServerBlueprint(
    createCatalogHandlers({ name: 'test', version: '1.0.0', logger, prompts, tools, resources, pageSize: 1 }),
  );
  const server = blueprint.create({ live: options.live ?? true });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientTransport);
  closers.push(() => client.close());
  return { client, owner, blueprint, logger };
};

describe('promptyard-server catalogs over MCP', () => {
  it('pages prompts/list, renders prompts and completes their arguments', async () => {
    const { client } = await connect();
    const first = (await client.request({ method: 'prompts/list', params: {} })) as { prompts: { name: string }[]; nextCursor?: string };
    expect(first.prompts.map((entry) => entry.name)).toEqual(['explain']);
    expect(first.nextCursor).toBeDefined();
    expect(
      ((await client.request({ method: 'prompts/list', params: { cursor: first.nextCursor } })) as { prompts: unknown[] }).prompts,
    ).toEqual([{ name: 'review', description: 'About review', arguments: [{ name: 'topic', required: true }] }]);
    expect(await client.getPrompt({ name: 'review', arguments: { topic: 'cats' } })).toEqual({
      description: 'About review',
      messages: [{ role: 'user', content: { type: 'text', text: 'review on cats' } }],
    });
    expect(
      (await client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'topic', value: 'd' } })).completion,
    ).toEqual({ values: ['dogs'], total: 1, hasMore: false });
  });

  it('answers bad requests with -32602 and a sentence that says what to do', async () => {
    const { client } = await connect();
    await expect(client.getPrompt({ name: 'reveiw' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Did you mean "review"'),
    });
    await expect(client.getPrompt({ name: 'review' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('missing required argument "topic"'),
    });
    await expect(client.request({ method: 'prompts/list', params: { cursor: 'forged' } })).rejects.toMatchObject({ code: -32602 });
  });

  it('pages tools/list and calls tools, with invalid arguments as isError results', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools).toEqual([
      expect.objectContaining({
        name: 'alpha',
        annotations: { readOnlyHint: true },
        inputSchema: expect.objectContaining({ required: ['text'] }),
      }),
      expect.objectContaining({ name: 'beta' }),
    ]);
    expect(await client.callTool({ name: 'beta', arguments: { text: 'hi' } })).toMatchObject({
      content: [{ type: 'text', text: 'beta: hi' }],
    });
    expect(await client.callTool({ name: 'beta', arguments: {} })).toMatchObject({
      isError: true,
      content: [{ text: 'Invalid arguments for tool "beta": "text" is required.' }],
    });
    await expect(client.callTool({ name: 'gamma', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it('announces catalog changes to live instances and to onListChanged listeners', async () => {
    const { client, owner, blueprint } = await connect();
    await client.listTools();
    const changed = new Promise<void>((resolve) => client.setNotificationHandler('notifications/tools/list_changed', () => resolve()));
    const kinds: string[] = [];
    const stop = blueprint.onListChanged((kind) => kinds.push(kind));
    owner.update({ upserted: [tool('gamma')] });
    await changed;
    expect(kinds).toEqual(['tools']);
    stop();
    expect((await client.listTools()).tools.map((entry) => entry.name)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('sends warnings as log notifications, and lower levels after logging/setLevel', async () => {
    const { client, logger } = await connect();
    const received: unknown[] = [];
    let arrived: () => void = () => {};
    client.setNotificationHandler('notifications/message', (notification) => {
      received.push(notification.params);
      arrived();
    });
    const next = () => new Promise<void>((resolve) => (arrived = resolve));
    let waiting = next();
    logger.child('prompts').info('not sent');
    logger.child('prompts').warn('file skipped', { file: 'a.md', bytes: 5 });
    await waiting;
    expect(received).toEqual([
      { level: 'warning', logger: 'promptyard:prompts', data: { message: 'file skipped', file: 'a.md', bytes: 5 } },
    ]);
    await client.setLoggingLevel('info');
    waiting = next();
    logger.child('get').info('prompts/get');
    await waiting;
    expect(received.at(-1)).toEqual({ level: 'info', logger: 'promptyard:get', data: { message: 'prompts/get' } });
  });
});

describe('resources through the catalog handlers', () => {
  it('lists, lists templates, reads and completes through providers', async () => {
    const { client } = await connect({ resources: [notes] });
    expect(client.getServerCapabilities()?.resources).toEqual({});
    expect((await client.listResources()).resources).toEqual([{ uri: 'note://a', name: 'a', mimeType: 'text/plain' }]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([{ uriTemplate: 'note://{id}', name: 'note' }]);
    expect((await client.readResource({ uri: 'note://b' })).contents).toEqual([
      { uri: 'note://b', mimeType: 'text/plain', text: 'content of note://b' },
    ]);
    expect(
      (await client.complete({ ref: { type: 'ref/resource', uri: 'note://{id}' }, argument: { name: 'id', value: 'al' } })).completion,
    ).toEqual({ values: ['alpha'], total: 1, hasMore: false });
  });

  it("answers unknown schemes and a provider's own not-found error with -32602", async () => {
    const { client } = await connect({ resources: [notes] });
    await expect(client.readResource({ uri: 'other://x' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/Unknown resource "other:\/\/x".*note:\/\//),
    });
    await expect(client.readResource({ uri: 'note://missing' })).rejects.toMatchObject({
      code: -32602,
      message: 'No note "missing".',
      data: { code: 'RESOURCE_NOT_FOUND', uri: 'note://missing' },
    });
  });

  it('recognises the not-found error of a provider that has its own copy of @promptyard/core', async () => {
    vi.resetModules();
    const copy = '../../../core/src/errors/errors.js?provider-copy';
    const { PromptyardError: ForeignError } = (await import(copy)) as typeof Core;
    expect(ForeignError).not.toBe(PromptyardError);
    const foreign: ResourceProvider = {
      ...notes,
      read: async (uri) => Promise.reject(new ForeignError('RESOURCE_NOT_FOUND', `No note "${uri}".`)),
    };
    const { client } = await connect({ resources: [foreign] });
    await expect(client.readResource({ uri: 'note://gone' })).rejects.toMatchObject({ code: -32602, message: 'No note "note://gone".' });
  });

  it('declares no resources capability without providers', async () => {
    const { client } = await connect();
    expect(client.getServerCapabilities()?.resources).toBeUndefined();
  });
});
