/**
 * Every URI a result names can be read back through the gateway, against real servers from npm:
 * server-everything's resource links, embedded resources (tools and prompts), server-memory's
 * subscribable resource, and an MCP App's `ui://` resource (server-basic-vanillajs). Each server is
 * started once behind one stdio gateway and once on its own, and what the gateway serves must equal
 * what the server serves directly, apart from the namespaced URI.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { cleanup, eventually, everythingCommand, gatewayToml, isAlive, makeFolder, newClient, startStdioGateway } from './harness.js';
import type { StdioCommand, StdioGateway } from './harness.js';

const require = createRequire(import.meta.url);

/** An npm server pinned in apps/gateway's devDependencies, run with this node: `entry` is the file its `bin` names. */
const npmServer = (entry: string, args: string[] = [], env?: Record<string, string>): StdioCommand => ({
  command: process.execPath,
  args: [entry, ...args],
  ...(env === undefined ? {} : { env }),
});
// server-memory has no `exports` (its package.json resolves); server-basic-vanillajs exports only
// its server module, which sits beside the stdio/HTTP entry in dist/.
const memoryEntry = join(dirname(require.resolve('@modelcontextprotocol/server-memory/package.json')), 'dist/index.js');
const appEntry = join(dirname(require.resolve('@modelcontextprotocol/server-basic-vanillajs')), 'index.js');

type Contents = { uri: string; text?: string; blob?: string; mimeType?: string; [key: string]: unknown }[];

/** server-everything's dynamic resources say when they were made: the same resource read twice differs only there. */
const timeless = (contents: Contents): unknown[] =>
  contents.map(({ uri: _uri, text, blob, ...rest }) => ({
    ...rest,
    ...(text === undefined ? {} : { text: text.replace(/created at .*$/u, 'created at <time>') }),
    ...(blob === undefined
      ? {}
      : {
          blob: Buffer.from(blob, 'base64')
            .toString('utf8')
            .replace(/created at .*$/u, 'created at <time>'),
        }),
  }));

const directPids: number[] = [];
const direct = async (command: StdioCommand): Promise<Client> => {
  const transport = new StdioClientTransport({
    command: command.command,
    args: command.args,
    env: { ...(process.env as Record<string, string>), ...command.env },
    stderr: 'ignore',
  });
  const client = newClient();
  await client.connect(transport);
  directPids.push(transport.pid as number);
  return client;
};

let gateway: StdioGateway;
let through: Client;
let everything: Client;
let memory: Client;
let app: Client;

beforeAll(async () => {
  const folder = await makeFolder({});
  const memoryCommand = npmServer(memoryEntry, [], { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') });
  const appCommand = npmServer(appEntry, ['--stdio']);
  [gateway, everything, memory, app] = await Promise.all([
    startStdioGateway({
      config: gatewayToml({
        everything: { command: everythingCommand('stdio') },
        memory: { command: memoryCommand },
        app: { command: appCommand },
      }),
    }),
    direct(everythingCommand('stdio')),
    direct(memoryCommand),
    direct(appCommand),
  ]);
  through = gateway.client;
}, 60_000);

afterAll(async () => {
  expect(await cleanup()).toEqual([]);
  for (const pid of directPids) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
});

describe('server-everything', () => {
  it('namespaces resource links, and each one reads through the gateway as it reads direct (relayed and full path)', async () => {
    const directLinks = (await everything.callTool({ name: 'get-resource-links', arguments: { count: 4 } })).content as {
      type: string;
      uri?: string;
    }[];
    for (const viaGateway of [
      await through.callTool({ name: 'everything_get-resource-links', arguments: { count: 4 } }),
      await through.callTool({ name: 'call_tool', arguments: { name: 'everything_get-resource-links', arguments: { count: 4 } } }),
    ]) {
      const links = viaGateway.content as { type: string; uri?: string }[];
      expect(links.filter((link) => link.type === 'resource_link').map((link) => link.uri)).toEqual([
        'everything+demo://resource/dynamic/blob/1',
        'everything+demo://resource/dynamic/text/2',
        'everything+demo://resource/dynamic/blob/3',
        'everything+demo://resource/dynamic/text/4',
      ]);
      expect(links.map(({ uri: _uri, ...rest }) => rest)).toEqual(directLinks.map(({ uri: _uri, ...rest }) => rest));
      for (const [index, link] of links.entries()) {
        if (link.type !== 'resource_link') continue;
        const read = (await through.readResource({ uri: link.uri as string })).contents as Contents;
        const expected = (await everything.readResource({ uri: directLinks[index]?.uri as string })).contents as Contents;
        expect(read.map((item) => item.uri)).toEqual([link.uri]);
        expect(timeless(read)).toEqual(timeless(expected));
      }
    }
  });

  it('namespaces an embedded resource in a tool result, and reading its URI gives the same resource', async () => {
    for (const resourceType of ['Text', 'Blob']) {
      const args = { resourceType, resourceId: 3 };
      const [viaGateway, viaServer] = await Promise.all([
        through.callTool({ name: 'everything_get-resource-reference', arguments: args }),
        everything.callTool({ name: 'get-resource-reference', arguments: args }),
      ]);
      const embedded = (viaGateway.content as { type: string; resource?: Contents[number] }[]).find(
        (block) => block.type === 'resource',
      )?.resource;
      const original = (viaServer.content as { type: string; resource?: Contents[number] }[]).find(
        (block) => block.type === 'resource',
      )?.resource;
      expect(embedded?.uri).toBe(`everything+demo://resource/dynamic/${resourceType.toLowerCase()}/3`);
      expect(timeless([embedded as Contents[number]])).toEqual(timeless([original as Contents[number]]));
      const read = (await through.readResource({ uri: embedded?.uri as string })).contents as Contents;
      expect(timeless(read)).toEqual(timeless((await everything.readResource({ uri: original?.uri as string })).contents as Contents));
    }
  });

  it('namespaces an embedded resource in a prompt message, and reading its URI gives the same resource', async () => {
    const args = { resourceType: 'Blob', resourceId: '2' };
    const [viaGateway, viaServer] = await Promise.all([
      through.getPrompt({ name: 'everything_resource-prompt', arguments: args }),
      everything.getPrompt({ name: 'resource-prompt', arguments: args }),
    ]);
    const resourceOf = (messages: typeof viaGateway.messages) =>
      (messages.map((message) => message.content).find((content) => content.type === 'resource') as { resource: Contents[number] })
        .resource;
    const embedded = resourceOf(viaGateway.messages);
    expect(embedded.uri).toBe('everything+demo://resource/dynamic/blob/2');
    expect(timeless([embedded])).toEqual(timeless([resourceOf(viaServer.messages)]));
    expect(timeless((await through.readResource({ uri: embedded.uri })).contents as Contents)).toEqual(
      timeless((await everything.readResource({ uri: 'demo://resource/dynamic/blob/2' })).contents as Contents),
    );
  });
});

describe('server-memory', () => {
  it('lists, reads and subscribes to its resource under the namespaced URI, and its updates come back namespaced', async () => {
    const uri = 'memory+memory://knowledge-graph';
    expect((await through.listResources()).resources.map((resource) => resource.uri)).toContain(uri);
    const updates: string[] = [];
    through.setNotificationHandler('notifications/resources/updated', (notification) => void updates.push(notification.params.uri));
    await through.subscribeResource({ uri });
    await through.callTool({
      name: 'memory_create_entities',
      arguments: { entities: [{ name: 'gateway', entityType: 'program', observations: ['routes URIs'] }] },
    });
    await eventually(
      async () => updates,
      (seen) => seen.length > 0,
    );
    expect(updates).toEqual([uri]);
    // Both processes share one memory file: the same graph, read direct and through the gateway.
    const read = (await through.readResource({ uri })).contents as Contents;
    expect(read.map((item) => item.uri)).toEqual([uri]);
    expect(JSON.parse(read[0]?.text ?? '')).toMatchObject({ entities: [{ name: 'gateway' }] });
    expect(timeless(read)).toEqual(timeless((await memory.readResource({ uri: 'memory://knowledge-graph' })).contents as Contents));
    await through.unsubscribeResource({ uri });
  });
});

describe('an MCP App (server-basic-vanillajs)', () => {
  it('namespaces the tool’s UI resource in both spellings, and the ui:// resource reads as it does direct', async () => {
    const tool = (await through.listTools()).tools.find((candidate) => candidate.name === 'app_get-time');
    const meta = tool?._meta as { ui?: { resourceUri?: string }; 'ui/resourceUri'?: string } | undefined;
    expect(meta?.ui?.resourceUri).toBe('app+ui://get-time/mcp-app.html');
    expect(meta?.['ui/resourceUri']).toBe('app+ui://get-time/mcp-app.html');
    const directMeta = (await app.listTools()).tools.find((candidate) => candidate.name === 'get-time')?._meta as
      { ui?: { resourceUri?: string } } | undefined;
    const read = (await through.readResource({ uri: meta?.ui?.resourceUri as string })).contents as Contents;
    const expected = (await app.readResource({ uri: directMeta?.ui?.resourceUri as string })).contents as Contents;
    expect(read.map((item) => item.uri)).toEqual(['app+ui://get-time/mcp-app.html']);
    expect(read[0]?.mimeType).toBe('text/html;profile=mcp-app');
    expect(timeless(read)).toEqual(timeless(expected));
    expect(read[0]?.text?.length).toBeGreaterThan(1000);
    const time = await through.callTool({ name: 'app_get-time', arguments: {} });
    expect(time.structuredContent).toMatchObject({ time: expect.any(String) });
  });
});
