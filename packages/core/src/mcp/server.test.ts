import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createCatalog } from '../catalog.js';
import { silentLogger } from '../logger.js';
import { createPromptService } from '../prompt-service.js';
import { createToolService } from '../tool-service.js';
import type { ToolDefinition } from '../tools.js';
import { textResult } from '../tools.js';
import type { PromptEntry } from '../types.js';
import { createMcpServerBlueprint } from './server.js';

const tool = (name: string): ToolDefinition => ({
  name,
  description: `The ${name} tool`,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  annotations: { readOnlyHint: true },
  execute: async (args) => textResult(`${name}: ${String(args['text'])}`),
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const connect = async () => {
  const logger = silentLogger();
  const prompts = createPromptService({
    catalog: createCatalog<PromptEntry>({ kind: 'prompt' }),
    logger,
    limits: { maxArgumentChars: 100, maxResponseBytes: 1000 },
    timeoutMs: 1000,
  });
  const catalog = createCatalog<ToolDefinition>({ kind: 'tool' });
  const owner = catalog.owner('test');
  owner.replace([tool('alpha'), tool('beta')]);
  const tools = createToolService({ catalog, logger, timeoutMs: 1000, maxResponseBytes: 1000 });
  const blueprint = await createMcpServerBlueprint({ name: 'test', version: '1.0.0', logger, prompts, tools, pageSize: 1 });
  const server = blueprint.create({ live: true });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientTransport);
  closers.push(() => client.close());
  return { client, owner, blueprint };
};

describe('tools in the MCP seam', () => {
  it('pages tools/list and calls tools, with invalid arguments as isError results', async () => {
    const { client } = await connect();
    const first = (await client.request({ method: 'tools/list', params: {} })) as { tools: { name: string }[]; nextCursor?: string };
    expect(first.tools.map((entry) => entry.name)).toEqual(['alpha']);
    expect(first.nextCursor).toBeDefined();
    const { tools } = await client.listTools();
    expect(tools).toEqual([
      expect.objectContaining({ name: 'alpha', annotations: { readOnlyHint: true }, inputSchema: expect.objectContaining({ required: ['text'] }) }),
      expect.objectContaining({ name: 'beta' }),
    ]);
    expect(await client.callTool({ name: 'beta', arguments: { text: 'hi' } })).toMatchObject({ content: [{ type: 'text', text: 'beta: hi' }] });
    expect(await client.callTool({ name: 'beta', arguments: {} })).toMatchObject({ isError: true, content: [{ text: 'Invalid arguments for tool "beta": "text" is required.' }] });
    await expect(client.callTool({ name: 'gamma', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it('announces tool catalog changes to live instances and to onListChanged listeners', async () => {
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
});
