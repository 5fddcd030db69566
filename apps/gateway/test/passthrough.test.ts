/**
 * What passes through the gateway besides plain results: progress, cancellation, logging, the
 * backend's requests to its client (sampling, elicitation, roots), resource subscriptions and list
 * changes, against the built gateway over stdio and HTTP with real test-server backends.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { cleanup, connectHttp, startHttpBackend, startHttpGateway, startStdioGateway, testServer, textOf, until } from './pass-harness.js';
import type { HostClient, HttpGateway, StdioGateway } from './pass-harness.js';
import type { HttpBackend } from './backends/spawn.js';

type Notification = 'notifications/tools/list_changed' | 'notifications/resources/updated' | 'notifications/message';

/** Records every notification of `method` a client receives. */
const record = (client: Client, method: Notification): unknown[] => {
  const seen: unknown[] = [];
  client.setNotificationHandler(method, (notification) => {
    seen.push(notification.params ?? {});
  });
  return seen;
};

const call = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> =>
  textOf(await client.callTool({ name, arguments: args }));

const toolNames = async (client: Client): Promise<string[]> => (await client.listTools()).tools.map((tool) => tool.name);

/** Runs `add_tool`/`remove_tool` on `server` and checks each list change reaches `client` and the list. */
const checkListChanges = async (
  caller: Client,
  server: string,
  tool: string,
  observers: readonly { client: Client; changes: () => number }[],
): Promise<void> => {
  const before = observers.map((observer) => observer.changes());
  expect(await call(caller, `${server}_add_tool`, { name: tool })).toBe(`added ${tool}`);
  await until(
    () => (observers.every((observer, index) => observer.changes() > (before[index] ?? 0)) ? true : undefined),
    5000,
    'tools/list_changed after add_tool',
  );
  for (const { client } of observers) {
    expect(await toolNames(client)).toContain(`${server}_${tool}`);
    expect(await call(client, `${server}_${tool}`, { text: 'hey' })).toBe(`${tool}: hey`);
  }
  const middle = observers.map((observer) => observer.changes());
  expect(await call(caller, `${server}_remove_tool`, { name: tool })).toBe(`removed ${tool}`);
  await until(
    () => (observers.every((observer, index) => observer.changes() > (middle[index] ?? 0)) ? true : undefined),
    5000,
    'tools/list_changed after remove_tool',
  );
  for (const { client } of observers) expect(await toolNames(client)).not.toContain(`${server}_${tool}`);
};

describe('over a stdio downstream (alpha: stdio backend, web: HTTP backend)', () => {
  let web: HttpBackend;
  let gateway: StdioGateway;
  let client: Client;
  let toolChanges: unknown[];
  let logs: unknown[];
  let updates: unknown[];

  beforeAll(async () => {
    web = await startHttpBackend({ name: 'w1' });
    gateway = await startStdioGateway({ servers: { alpha: testServer('a1'), web: { url: web.url } } });
    client = gateway.client;
    toolChanges = record(client, 'notifications/tools/list_changed');
    logs = record(client, 'notifications/message');
    updates = record(client, 'notifications/resources/updated');
  });
  afterAll(async () => {
    await cleanup();
    await web.stop();
  });

  it.each(['alpha', 'web'])('forwards progress from %s to the caller, under its progressToken', async (server) => {
    // The last step reaches the gateway together with the response: repeat to catch it being lost.
    for (let round = 0; round < 4; round++) {
      const progress: unknown[] = [];
      const result = await client.callTool(
        { name: `${server}_progress`, arguments: { steps: 3, delayMs: 5 } },
        { onprogress: (value) => progress.push(value) },
      );
      expect(textOf(result)).toBe('done 3');
      expect(progress).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step}` })));
    }
  });

  it.each(['alpha', 'web'])('passes a cancelled call on to %s', async (server) => {
    const before = Number(await call(client, `${server}_was_cancelled`));
    const controller = new AbortController();
    const slow = client.callTool({ name: `${server}_slow`, arguments: { ms: 30_000 } }, { signal: controller.signal });
    // Cancel once the backend has the call.
    await until(async () => ((await call(client, `${server}_busy`)) === '1' ? true : undefined), 5000, 'the backend to start the call');
    controller.abort('the test cancels');
    await expect(slow).rejects.toThrow();
    // The cancellation reaches the backend asynchronously: poll its counter.
    await until(
      async () => (Number(await call(client, `${server}_was_cancelled`)) === before + 1 ? true : undefined),
      5000,
      'the backend to count the cancellation',
    );
    expect(await call(client, `${server}_busy`)).toBe('0');
  });

  it('forwards backend logs under the logger <server>/<logger>, filtered by logging/setLevel', async () => {
    await client.setLoggingLevel('warning');
    logs.length = 0;
    expect(await call(client, 'alpha_log', { level: 'info', message: 'quiet' })).toBe('logged');
    expect(await call(client, 'alpha_log', { level: 'error', message: 'loud' })).toBe('logged');
    await until(() => (logs.length > 0 ? true : undefined), 3000, 'the error log');
    expect(logs).toEqual([{ level: 'error', logger: 'alpha/a1', data: 'loud' }]);

    await client.setLoggingLevel('debug');
    expect(await call(client, 'alpha_log', { level: 'info', message: 'now heard' })).toBe('logged');
    await until(() => (logs.length > 1 ? true : undefined), 3000, 'the info log');
    expect(logs[1]).toEqual({ level: 'info', logger: 'alpha/a1', data: 'now heard' });
  });

  it.each(['alpha', 'web'])('lets the client answer sampling, elicitation and roots for %s', async (server) => {
    expect(await call(client, `${server}_sample`, { prompt: 'a haiku' })).toBe('sampled: echo of a haiku');
    expect(await call(client, `${server}_elicit`, { message: 'Your name?' })).toBe('action=accept name=Ada');
    expect(await call(client, `${server}_elicit`, { message: 'please decline' })).toBe('action=decline name=');
    expect(await call(client, `${server}_roots`)).toBe('file:///work/one\nfile:///work/two');
  });

  it('answers roots with the client’s current roots after roots/list_changed', async () => {
    gateway.roots = [{ uri: 'file:///work/three', name: 'three' }];
    await client.sendRootsListChanged();
    expect(await call(client, 'alpha_roots')).toBe('file:///work/three');
    expect(await call(client, 'web_roots')).toBe('file:///work/three');
    expect(await call(client, 'alpha_echo', { text: 'still fine' })).toBe('still fine');
  });

  it('routes resource subscriptions to the owner and reports updates under the namespaced URI', async () => {
    const info = (await client.listResources()).resources.find((resource) => resource.uri.includes('test://a1/info'));
    expect(info?.uri).toBeDefined();
    const uri = info?.uri as string;
    expect(uri).not.toBe('test://a1/info');
    expect((await client.readResource({ uri })).contents[0]).toMatchObject({ uri, text: expect.stringContaining('info for a1') });

    updates.length = 0;
    await client.subscribeResource({ uri });
    await call(client, 'alpha_touch_resource', { uri: 'test://a1/info' });
    await until(() => (updates.length > 0 ? true : undefined), 3000, 'notifications/resources/updated');
    expect(updates).toEqual([{ uri }]);

    await client.unsubscribeResource({ uri });
    await call(client, 'alpha_touch_resource', { uri: 'test://a1/info' });
    // Subscribed again, a second touch is the sentinel: the backend's notifications arrive in order,
    // so an update leaked by the first touch would be here before it.
    await client.subscribeResource({ uri });
    await call(client, 'alpha_touch_resource', { uri: 'test://a1/info' });
    await until(() => (updates.length > 1 ? true : undefined), 3000, 'the update after subscribing again');
    expect(updates).toEqual([{ uri }, { uri }]);
    await client.unsubscribeResource({ uri });
  });

  it.each(['alpha', 'web'])('announces tools %s adds and removes at run time', async (server) => {
    await checkListChanges(client, server, `shout_${server}`, [{ client, changes: () => toolChanges.length }]);
  });
});

describe('over an HTTP downstream (beta: stdio backend)', () => {
  let gateway: HttpGateway;
  let legacy: HostClient;

  beforeAll(async () => {
    gateway = await startHttpGateway({ servers: { beta: testServer('b1') } });
    legacy = await connectHttp(gateway.url);
  });
  afterAll(cleanup);

  it('lets a 2025-era session answer sampling, elicitation and roots', async () => {
    const client = legacy.client;
    expect(client.getProtocolEra()).toBe('legacy');
    expect(await call(client, 'beta_sample', { prompt: 'over http' })).toBe('sampled: echo of over http');
    expect(await call(client, 'beta_elicit', { message: 'Your name?' })).toBe('action=accept name=Ada');
    expect(await call(client, 'beta_roots')).toBe('file:///work/one\nfile:///work/two');
  });

  it('lets a 2026-07-28 caller answer sampling, elicitation and roots, as input_required rounds of its call', async () => {
    const modern = await connectHttp(gateway.url, { versionNegotiation: { mode: 'auto' } });
    expect(modern.client.getProtocolEra()).toBe('modern');
    expect(await call(modern.client, 'beta_sample', { prompt: 'over rounds' })).toBe('sampled: echo of over rounds');
    expect(await call(modern.client, 'beta_elicit', { message: 'Your name?' })).toBe('action=accept name=Ada');
    expect(await call(modern.client, 'beta_roots')).toBe('file:///work/one\nfile:///work/two');
  });

  it.each(['legacy', 'modern'] as const)(
    'relays a %s call over HTTP as the full path answers it, and passes its cancellation on',
    async (era) => {
      // A 2026-07-28 client that can answer no server request is relayed too; a progress token forces the full path.
      const client =
        era === 'legacy' ? legacy.client : new Client({ name: 'bare', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      if (era === 'modern') {
        await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
        onTestFinished(() => client.close());
      }
      expect(client.getProtocolEra()).toBe(era);
      const relayed = await client.callTool({ name: 'beta_echo', arguments: { text: 'same' } });
      const full = await client.callTool({ name: 'beta_echo', arguments: { text: 'same' } }, { onprogress: () => {} });
      expect(relayed).toEqual(full);

      const before = Number(await call(client, 'beta_was_cancelled'));
      const controller = new AbortController();
      const slow = client.callTool({ name: 'beta_slow', arguments: { ms: 30_000 } }, { signal: controller.signal });
      await until(async () => ((await call(client, 'beta_busy')) === '1' ? true : undefined), 5000, 'the backend to start the call');
      controller.abort('the test cancels');
      await expect(slow).rejects.toThrow();
      await until(
        async () => (Number(await call(client, 'beta_was_cancelled')) === before + 1 ? true : undefined),
        5000,
        'the backend to count the cancellation',
      );
      expect(await call(client, 'beta_busy')).toBe('0');
    },
  );

  it('announces run-time tool changes to a 2025-era session and to a listening 2026-07-28 client', async () => {
    const legacyChanges = record(legacy.client, 'notifications/tools/list_changed');
    const modern = await connectHttp(gateway.url, { versionNegotiation: { mode: 'auto' } });
    const modernChanges = record(modern.client, 'notifications/tools/list_changed');
    const subscription = await modern.client.listen({ toolsListChanged: true });
    try {
      await checkListChanges(legacy.client, 'beta', 'whisper', [
        { client: legacy.client, changes: () => legacyChanges.length },
        { client: modern.client, changes: () => modernChanges.length },
      ]);
    } finally {
      await subscription.close();
    }
  });
});
