import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createCatalog } from '../catalog.js';
import { silentLogger } from '../logger.js';
import { createPromptService } from '../prompt-service.js';
import type { ResourceProvider } from '../resources.js';
import type { PromptEntry } from '../types.js';
import { createMcpServerBlueprint } from './server.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A provider as a third-party resource package would write it. */
const notes: ResourceProvider = {
  scheme: 'note',
  list: () => [{ uri: 'note://a', name: 'a', mimeType: 'text/plain' }],
  templates: () => [{ uriTemplate: 'note://{id}', name: 'note' }],
  read: async (uri) => [{ uri, mimeType: 'text/plain', text: `content of ${uri}` }],
};

const connect = async (resources?: readonly ResourceProvider[]) => {
  const logger = silentLogger();
  const prompts = createPromptService({ catalog: createCatalog<PromptEntry>({ kind: 'prompt' }), logger, limits: { maxArgumentChars: 100, maxResponseBytes: 1000 }, timeoutMs: 1000 });
  const blueprint = await createMcpServerBlueprint({ name: 'test', version: '1.0.0', logger, prompts, ...(resources === undefined ? {} : { resources }) });
  const server = blueprint.create({ live: false });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
};

describe('the resources seam', () => {
  it('lists, lists templates and reads through providers; unknown schemes are invalid params', async () => {
    const client = await connect([notes]);
    expect(client.getServerCapabilities()?.resources).toEqual({});
    expect((await client.listResources()).resources).toEqual([{ uri: 'note://a', name: 'a', mimeType: 'text/plain' }]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([{ uriTemplate: 'note://{id}', name: 'note' }]);
    expect((await client.readResource({ uri: 'note://b' })).contents).toEqual([{ uri: 'note://b', mimeType: 'text/plain', text: 'content of note://b' }]);
    await expect(client.readResource({ uri: 'other://x' })).rejects.toThrow(/Unknown resource "other:\/\/x".*note:\/\//);
  });

  it('declares no resources capability without providers', async () => {
    const client = await connect();
    expect(client.getServerCapabilities()?.resources).toBeUndefined();
  });
});
