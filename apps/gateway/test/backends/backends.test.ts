/**
 * The real backends the gateway tests and benchmark rely on, checked directly with the SDK client
 * before anything routes through the gateway: every tool, prompt and resource of test-server.mjs
 * over stdio and Streamable HTTP, in both protocol eras.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Client, LOG_LEVEL_META_KEY, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
// The SDK client workaround the gateway uses upstream, from its source: not part of the router's API.
import { deliverNotificationsFirst } from '../../../../packages/router/src/sdk/upstream.js';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { everythingCommand, isAlive, listDescendants, startEverythingHttp, startHttpBackend, stdioBackendCommand } from './spawn.js';
import { answerLikeAHost, defaultRoots, hostCapabilities } from './host-client.js';
import type { HttpBackend } from './spawn.js';

type Era = 'legacy' | 'modern';
type ClientOptions = NonNullable<ConstructorParameters<typeof Client>[1]>;

const clients = new Set<Client>();
const backends = new Set<HttpBackend>();
const stdioPids = new Set<number>();

const closeAll = async (): Promise<void> => {
  await Promise.allSettled([...clients].map((client) => client.close()));
  clients.clear();
  await Promise.allSettled([...backends].map((backend) => backend.stop()));
  backends.clear();
  for (const pid of stdioPids) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  stdioPids.clear();
};
afterEach(closeAll);
afterAll(async () => {
  await closeAll();
  expect(listDescendants(process.pid).filter((pid) => isAlive(pid) && !isVitestWorker(pid))).toEqual([]);
});

/** vitest's own worker processes are descendants too; only backends count as leaks. */
const isVitestWorker = (pid: number): boolean => {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return !cmdline.includes('test-server.mjs') && !cmdline.includes('server-everything');
  } catch {
    return true;
  }
};

/** A client that answers sampling, elicitation and roots like a host would. */
const makeClient = (era: Era, extra: ClientOptions = {}): Client => {
  const client = new Client(
    { name: 'backends-test', version: '1.0.0' },
    {
      capabilities: hostCapabilities,
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      ...extra,
    },
  );
  answerLikeAHost(client, () => defaultRoots);
  clients.add(client);
  return client;
};

const connectStdio = async (
  name: string,
  era: Era,
  extra: ClientOptions = {},
): Promise<{ client: Client; pid: number; stderr: () => string }> => {
  const { command, args } = stdioBackendCommand({ name });
  const transport = new StdioClientTransport({ command, args, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = makeClient(era, extra);
  await client.connect(transport);
  deliverNotificationsFirst(transport);
  const pid = transport.pid as number;
  stdioPids.add(pid);
  return { client, pid, stderr: () => stderr };
};

const connectHttp = async (url: string, era: Era, extra: ClientOptions = {}): Promise<Client> => {
  const client = makeClient(era, extra);
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  deliverNotificationsFirst(transport);
  return client;
};

const httpBackend = async (name: string, era: 'both' | 'legacy' = 'both'): Promise<HttpBackend> => {
  const backend = await startHttpBackend({ name, era });
  backends.add(backend);
  return backend;
};

const textOf = (result: { content?: unknown }): string =>
  ((result.content ?? []) as { type: string; text?: string }[])
    .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
    .join('\n');

/** A promise for the next notification of `method`, resolving with its params. */
const nextNotification = (
  client: Client,
  method: 'notifications/tools/list_changed' | 'notifications/resources/updated',
): Promise<unknown> => new Promise((resolve) => client.setNotificationHandler(method, (notification) => resolve(notification.params)));

interface Setup {
  readonly label: string;
  readonly era: Era;
  readonly connect: (name: string, extra?: ClientOptions) => Promise<Client>;
}

const setups: Setup[] = [
  { label: 'stdio, 2025-11-25', era: 'legacy', connect: async (name, extra) => (await connectStdio(name, 'legacy', extra)).client },
  { label: 'stdio, 2026-07-28', era: 'modern', connect: async (name, extra) => (await connectStdio(name, 'modern', extra)).client },
  {
    label: 'http --era both, 2025-11-25',
    era: 'legacy',
    connect: async (name, extra) => connectHttp((await httpBackend(name)).url, 'legacy', extra),
  },
  {
    label: 'http --era both, 2026-07-28',
    era: 'modern',
    connect: async (name, extra) => connectHttp((await httpBackend(name)).url, 'modern', extra),
  },
  {
    label: 'http --era legacy, 2025-11-25',
    era: 'legacy',
    connect: async (name, extra) => connectHttp((await httpBackend(name, 'legacy')).url, 'legacy', extra),
  },
];

describe.each(setups)('test-server over $label', ({ era, connect }) => {
  it('lists the tools and answers echo, add, content_kinds and whoami', async () => {
    const client = await connect('alpha');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining([
        'echo',
        'add',
        'content_kinds',
        'progress',
        'slow',
        'hang',
        'was_cancelled',
        'sample',
        'elicit',
        'roots',
        'log',
        'add_tool',
        'remove_tool',
        'crash',
        'touch_resource',
        'whoami',
      ]),
    );
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi there' } }))).toBe('hi there');

    const added = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
    expect(added.structuredContent).toEqual({ sum: 42 });
    expect(textOf(added)).toBe('42');

    const kinds = await client.callTool({ name: 'content_kinds', arguments: {} });
    expect((kinds.content as { type: string }[]).map((block) => block.type)).toEqual([
      'text',
      'image',
      'audio',
      'resource',
      'resource_link',
    ]);

    expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toMatch(new RegExp(`^name=alpha pid=\\d+ era=${era}$`));

    const invalid = await client.callTool({ name: 'echo', arguments: { text: 3 } });
    expect(invalid.isError).toBe(true);
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it('reports progress and honours cancellation', async () => {
    const client = await connect('alpha');
    const steps: number[] = [];
    const done = await client.callTool(
      { name: 'progress', arguments: { steps: 3, delayMs: 5 } },
      { onprogress: (progress) => steps.push(progress.progress) },
    );
    expect(textOf(done)).toBe('done 3');
    // The SDK client alone may settle the call before it dispatches the last progress notification;
    // with the router's deliverNotificationsFirst on its transport it sees every one, in order.
    expect(steps).toEqual([1, 2, 3]);

    const controller = new AbortController();
    const slow = client.callTool({ name: 'slow', arguments: { ms: 30_000 } }, { signal: controller.signal });
    setTimeout(() => controller.abort('test cancels'), 100);
    await expect(slow).rejects.toThrow();
    const hanging = new AbortController();
    const hang = client.callTool({ name: 'hang', arguments: {} }, { signal: hanging.signal });
    setTimeout(() => hanging.abort('test cancels'), 100);
    await expect(hang).rejects.toThrow();
    // The cancellation travels to the backend asynchronously; poll its counter.
    let count = '0';
    for (let attempt = 0; attempt < 100 && count !== '2'; attempt++) {
      count = textOf(await client.callTool({ name: 'was_cancelled', arguments: {} }));
      if (count !== '2') await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(count).toBe('2');
  });

  it('asks its client for sampling, elicitation and roots', async () => {
    const client = await connect('alpha');
    expect(textOf(await client.callTool({ name: 'sample', arguments: { prompt: 'a haiku' } }))).toBe('sampled: echo of a haiku');
    expect(textOf(await client.callTool({ name: 'elicit', arguments: { message: 'Your name?' } }))).toBe('action=accept name=Ada');
    expect(textOf(await client.callTool({ name: 'elicit', arguments: { message: 'please decline' } }))).toBe('action=decline name=');
    expect(textOf(await client.callTool({ name: 'roots', arguments: {} }))).toBe('file:///work/one\nfile:///work/two');
  });

  it('adds and removes tools at run time and says so', async () => {
    const client = await connect('alpha');
    const subscription = era === 'modern' ? await client.listen({ toolsListChanged: true }) : undefined;
    const changed = nextNotification(client, 'notifications/tools/list_changed');
    expect(textOf(await client.callTool({ name: 'add_tool', arguments: { name: 'shout' } }))).toBe('added shout');
    await changed;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('shout');
    expect(textOf(await client.callTool({ name: 'shout', arguments: { text: 'hey' } }))).toBe('shout: hey');
    const removed = nextNotification(client, 'notifications/tools/list_changed');
    await client.callTool({ name: 'remove_tool', arguments: { name: 'shout' } });
    await removed;
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('shout');
    await subscription?.close();
  });

  it('serves prompts, resources and completions, and tells subscribers about updates', async () => {
    const client = await connect('beta');
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['greet', 'pid_prompt']);
    const greeting = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada', style: 'formal' } });
    expect(greeting.messages[0]?.content).toEqual({ type: 'text', text: 'Hello Ada (formal)' });
    expect((await client.getPrompt({ name: 'pid_prompt' })).messages[0]?.content).toMatchObject({
      text: expect.stringMatching(/^pid \d+ name beta$/),
    });
    const styles = await client.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'style', value: 'f' } });
    expect(styles.completion.values).toEqual(['formal']);

    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['test://beta/info']);
    expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'test://beta/items/{id}',
    ]);
    expect((await client.readResource({ uri: 'test://beta/items/2' })).contents).toEqual([
      { uri: 'test://beta/items/2', mimeType: 'text/plain', text: 'item 2' },
    ]);
    expect((await client.readResource({ uri: 'test://beta/info' })).contents[0]).toMatchObject({
      text: expect.stringContaining('info for beta'),
    });
    await expect(client.readResource({ uri: 'test://beta/missing' })).rejects.toThrow(/not found/i);
    const ids = await client.complete({
      ref: { type: 'ref/resource', uri: 'test://beta/items/{id}' },
      argument: { name: 'id', value: '' },
    });
    expect(ids.completion.values).toEqual(['1', '2', '3']);

    const subscription = era === 'modern' ? await client.listen({ resourceSubscriptions: ['test://beta/info'] }) : undefined;
    if (era === 'legacy') await client.subscribeResource({ uri: 'test://beta/info' });
    const updated = nextNotification(client, 'notifications/resources/updated');
    await client.callTool({ name: 'touch_resource', arguments: { uri: 'test://beta/info' } });
    expect(await updated).toMatchObject({ uri: 'test://beta/info' });
    if (era === 'legacy') await client.unsubscribeResource({ uri: 'test://beta/info' });
    await subscription?.close();
  });

  it('sends log messages at or above the level the client asked for', async () => {
    const client = await connect('alpha');
    const received: unknown[] = [];
    client.setNotificationHandler('notifications/message', (notification) => {
      received.push(notification.params);
    });
    // 2025: a session-wide logging/setLevel; 2026-07-28: a per-request envelope key (absent = no logs).
    if (era === 'legacy') await client.setLoggingLevel('warning');
    const _meta = era === 'modern' ? { [LOG_LEVEL_META_KEY]: 'warning' } : undefined;
    expect(textOf(await client.callTool({ name: 'log', arguments: { level: 'info', message: 'quiet' }, ...(_meta && { _meta }) }))).toBe(
      'logged',
    );
    await client.callTool({ name: 'log', arguments: { level: 'error', message: 'loud' }, ...(_meta && { _meta }) });
    // A notification sent before the call's response arrives first on every transport here.
    expect(received).toEqual([{ level: 'error', data: 'loud', logger: 'alpha' }]);
  });
});

describe('test-server processes', () => {
  it('lands on the modern era with --era both and on legacy with --era legacy under auto negotiation', async () => {
    const both = await httpBackend('gamma');
    const legacy = await httpBackend('delta', 'legacy');
    const auto = { versionNegotiation: { mode: 'auto' } } as const;
    const modernClient = await connectHttp(both.url, 'legacy', auto);
    expect(modernClient.getProtocolEra()).toBe('modern');
    const legacyClient = await connectHttp(legacy.url, 'legacy', auto);
    expect(legacyClient.getProtocolEra()).toBe('legacy');
    expect(textOf(await legacyClient.callTool({ name: 'whoami', arguments: {} }))).toMatch(/^name=delta pid=\d+ era=legacy$/);
  });

  it('exits mid-call on crash, so the caller sees the call fail', async () => {
    const { client, pid } = await connectStdio('crashy', 'legacy');
    await expect(client.callTool({ name: 'crash', arguments: {} })).rejects.toThrow();
    for (let attempt = 0; attempt < 100 && isAlive(pid); attempt++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(isAlive(pid)).toBe(false);

    const backend = await httpBackend('crashy-http');
    const httpClient = await connectHttp(backend.url, 'legacy');
    await expect(httpClient.callTool({ name: 'crash', arguments: {} })).rejects.toThrow();
    await new Promise<void>((resolve) => (backend.child.exitCode === null ? backend.child.once('exit', () => resolve()) : resolve()));
    expect(backend.child.exitCode).toBe(3);
  });

  it('writes every progress notification before the result on the stdio wire', async () => {
    const { command, args } = stdioBackendCommand({ name: 'wire' });
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    stdioPids.add(child.pid as number);
    const lines: { id?: number; method?: string; params?: { progress?: number } }[] = [];
    let buffered = '';
    const answered = new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
          lines.push(JSON.parse(buffered.slice(0, end)) as (typeof lines)[number]);
          buffered = buffered.slice(end + 1);
          if (lines.at(-1)?.id === 2) resolve();
        }
      }),
    );
    const send = (message: object): boolean => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'progress', arguments: { steps: 3 }, _meta: { progressToken: 'p' } } });
    await answered;
    child.stdin.end();
    const call = lines.filter((line) => line.id === 2 || line.method === 'notifications/progress');
    expect(call.map((line) => line.params?.progress ?? `id ${line.id}`)).toEqual([1, 2, 3, 'id 2']);
  });

  it('tells two instances apart by name and pid', async () => {
    const one = await connectStdio('one', 'legacy');
    const two = await connectStdio('two', 'legacy');
    expect(textOf(await one.client.callTool({ name: 'whoami', arguments: {} }))).toBe(`name=one pid=${one.pid} era=legacy`);
    expect(textOf(await two.client.callTool({ name: 'whoami', arguments: {} }))).toBe(`name=two pid=${two.pid} era=legacy`);
  });
});

describe('server-everything (the reference server)', () => {
  it('runs over stdio from the resolved command', async () => {
    const { command, args } = everythingCommand('stdio');
    const transport = new StdioClientTransport({ command, args, stderr: 'pipe' });
    transport.stderr?.on('data', () => {});
    const client = makeClient('legacy');
    await client.connect(transport);
    stdioPids.add(transport.pid as number);
    const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    expect(textOf(result)).toContain('hi');
  });

  it('serves the legacy HTTP+SSE transport, our only SSE backend', async () => {
    const backend = await startEverythingHttp('sse');
    backends.add(backend);
    const client = makeClient('legacy');
    await client.connect(new SSEClientTransport(new URL(backend.url)));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo');
  });
});
