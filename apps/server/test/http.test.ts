import { writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { promptFiles } from './fixtures.js';
import { cleanup, connectHttp, makeFolder, startHttp } from './harness.js';
import type { Era } from './harness.js';

afterEach(cleanup);

const initialize = (id = 1) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });

const post = (url: string, body: string, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });

const rawPost = (url: string, body: string, headers: Record<string, string>): Promise<number> =>
  new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end(body);
  });

describe('promptyard-server over Streamable HTTP', () => {
  for (const era of ['legacy', 'modern'] as Era[]) {
    it(`serves ${era === 'legacy' ? '2025-11-25 (sessions)' : '2026-07-28 (stateless)'} clients from one endpoint`, async () => {
      const dir = await makeFolder(promptFiles);
      const server = await startHttp(['--prompts', dir]);
      const client = await connectHttp(server.url, { era });
      expect(client.getProtocolEra()).toBe(era);
      const { prompts } = await client.listPrompts();
      expect(prompts).toHaveLength(6);
      const result = await client.getPrompt({ name: 'review', arguments: { code: 'fn main() {}', language: 'rust' } });
      expect(result.messages[0]?.content).toEqual({ type: 'text', text: 'Review this rust code:\n\nfn main() {}\n' });
      const completion = await client.complete({
        ref: { type: 'ref/prompt', name: 'review' },
        argument: { name: 'language', value: 'py' },
      });
      expect(completion.completion.values).toEqual(['python']);
      const error = await client.getPrompt({ name: 'nope' }).catch((caught: unknown) => caught as { code: number });
      expect((error as { code: number }).code).toBe(-32602);
    });
  }

  it('pushes prompts/list_changed to a 2025 session and to a 2026 subscription', async () => {
    const dir = await makeFolder(promptFiles);
    const server = await startHttp(['--prompts', dir]);
    await server.stderr.waitFor(/watching/);
    const legacy = await connectHttp(server.url, { era: 'legacy' });
    const modern = await connectHttp(server.url, { era: 'modern' });
    const legacyChanged = new Promise<void>((resolve) =>
      legacy.setNotificationHandler('notifications/prompts/list_changed', () => resolve()),
    );
    const modernChanged = new Promise<void>((resolve) =>
      modern.setNotificationHandler('notifications/prompts/list_changed', () => resolve()),
    );
    await legacy.listPrompts();
    const subscription = await modern.listen({ promptsListChanged: true });
    expect(subscription.honoredFilter).toMatchObject({ promptsListChanged: true });
    await writeFile(join(dir, 'fresh.md'), '# Fresh prompt\nHi');
    await Promise.all([legacyChanged, modernChanged]);
    const { prompts } = await modern.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain('fresh');
    await subscription.close();
  });

  it('rejects DNS-rebinding Host and foreign Origin headers', async () => {
    const dir = await makeFolder(promptFiles);
    const server = await startHttp(['--prompts', dir]);
    const port = new URL(server.url).port;
    // fetch() will not forge a Host header; a raw request can, as a rebinding page's browser would.
    const rebound = await rawPost(server.url, initialize(), { host: `evil.example:${port}` });
    expect(rebound).toBe(403);
    const foreign = await post(server.url, initialize(), { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const local = await post(server.url, initialize(), { origin: `http://localhost:${port}` });
    expect(local.status).toBe(200);
  });

  it('requires the bearer token when one is configured', async () => {
    const dir = await makeFolder(promptFiles);
    const server = await startHttp(['--prompts', dir], { env: { PROMPTYARD_AUTH_TOKEN: 's3cret-token' } });
    const anonymous = await post(server.url, initialize());
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const wrong = await post(server.url, initialize(), { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    await expect(connectHttp(server.url, { era: 'legacy' })).rejects.toThrow();
    for (const era of ['legacy', 'modern'] as Era[]) {
      const client = await connectHttp(server.url, { era, token: 's3cret-token' });
      expect((await client.listPrompts()).prompts).toHaveLength(6);
    }
    expect(server.stderr.text).not.toContain('s3cret-token');
  });

  it('rate-limits a client with 429 and Retry-After when enabled', async () => {
    const dir = await makeFolder(promptFiles);
    const server = await startHttp(['--prompts', dir], {
      env: {
        PROMPTYARD_TRANSPORT_RATE_LIMIT_ENABLED: 'true',
        PROMPTYARD_TRANSPORT_RATE_LIMIT_BURST: '5',
        PROMPTYARD_TRANSPORT_RATE_LIMIT_REQUESTS_PER_MINUTE: '60',
      },
    });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let index = 0; index < 8; index++) {
      const response = await post(server.url, initialize(index + 1));
      statuses.push(response.status);
      if (response.status === 429) retryAfter = response.headers.get('retry-after');
      await response.body?.cancel();
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  });

  it('behind a trusted proxy, counts each client its X-Forwarded-For names', async () => {
    const dir = await makeFolder(promptFiles);
    const limits = {
      PROMPTYARD_TRANSPORT_RATE_LIMIT_ENABLED: 'true',
      PROMPTYARD_TRANSPORT_RATE_LIMIT_BURST: '2',
      PROMPTYARD_TRANSPORT_RATE_LIMIT_REQUESTS_PER_MINUTE: '1',
    };
    const health = async (url: string, client: string): Promise<number> =>
      (await fetch(new URL('/health', url), { headers: { 'x-forwarded-for': client } })).status;
    const proxied = await startHttp(['--prompts', dir], {
      env: { ...limits, PROMPTYARD_TRANSPORT_RATE_LIMIT_TRUSTED_PROXIES: '127.0.0.1' },
    });
    const statuses = [];
    for (const client of ['198.51.100.1', '198.51.100.1', '198.51.100.1', '198.51.100.2', '198.51.100.2', 'forged, 198.51.100.2'])
      statuses.push(await health(proxied.url, client));
    expect(statuses).toEqual([200, 200, 429, 200, 200, 429]);
    // Without trusted proxies the header is ignored: one bucket for the connecting address.
    const direct = await startHttp(['--prompts', dir], { env: limits });
    const shared = [];
    for (const client of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) shared.push(await health(direct.url, client));
    expect(shared).toEqual([200, 200, 429]);
  });

  it('caps request bodies, answers /health and 404s other paths', async () => {
    const dir = await makeFolder(promptFiles);
    const server = await startHttp(['--prompts', dir], { env: { PROMPTYARD_TRANSPORT_MAX_BODY_BYTES: '2048' } });
    const big = await post(server.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(4096) } }));
    expect(big.status).toBe(413);
    const health = await fetch(new URL('/health', server.url));
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', prompts: 6 });
    const other = await fetch(new URL('/elsewhere', server.url));
    expect(other.status).toBe(404);
  });

  it('lets go of each 2025-11-25 session its client closes with DELETE', async () => {
    const dir = await makeFolder(promptFiles);
    const server = await startHttp(['--prompts', dir]);
    const sessions = async (): Promise<unknown> =>
      ((await (await fetch(new URL('/health', server.url))).json()) as { sessions: unknown }).sessions;
    const opened = await Promise.all(
      Array.from({ length: 12 }, async (_, index) => {
        const transport = new StreamableHTTPClientTransport(new URL(server.url));
        const client = new Client({ name: 'promptyard-e2e', version: '1.0.0' });
        await client.connect(transport);
        await client.getPrompt({ name: 'review', arguments: { code: `line ${index}\n`.repeat(100), language: 'rust' } });
        return { client, transport };
      }),
    );
    expect(await sessions()).toBe(12);
    for (const { client, transport } of opened) {
      await transport.terminateSession();
      await client.close();
    }
    expect(await sessions()).toBe(0);
  });

  it('answers broken JSON-RPC with an error and keeps serving', async () => {
    const dir = await makeFolder(promptFiles);
    const server = await startHttp(['--prompts', dir]);
    const garbage = await post(server.url, '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(garbage.status).toBeGreaterThanOrEqual(400);
    expect(garbage.status).toBeLessThan(500);
    const unknownSession = await post(server.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'prompts/list' }), {
      'mcp-session-id': 'nope',
    });
    expect(unknownSession.status).toBe(404);
    const client = await connectHttp(server.url);
    expect((await client.listPrompts()).prompts).toHaveLength(6);
  });
});
