import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer } from '../../../test-support/oidc-provider.js';
import type { TestIssuer } from '../../../test-support/oidc-provider.js';
import { promptFiles } from './fixtures.js';
import { cleanup, eventually, makeFolder, runCli, startHttp } from './harness.js';
import type { HttpServer } from './harness.js';

/**
 * promptyard-server in resource-server mode, black-box: the built binary with `[auth]` from the
 * environment, a real OpenID provider on loopback, and the SDK client getting its token by the
 * client credentials grant, as a machine account's client would.
 */
let issuer: TestIssuer;
let resources: string[] = [];
beforeAll(async () => {
  issuer = await startTestIssuer({ resources: () => resources, groups: ['design'] });
});
afterAll(() => issuer.close());
afterEach(async () => {
  await cleanup();
  issuer.setJwks('ok');
});

const start = async (env: Record<string, string> = {}): Promise<HttpServer> => {
  const dir = await makeFolder(promptFiles);
  const server = await startHttp(['--prompts', dir], {
    env: {
      PROMPTYARD_AUTH_ISSUER: issuer.issuer,
      PROMPTYARD_AUTH_REQUIRED_SCOPES: 'mcp',
      PROMPTYARD_FALLBACK_TOOLS: 'true',
      PROMPTYARD_LOG_LEVEL: 'debug',
      ...env,
    },
  });
  resources = [server.url];
  return server;
};

const post = (url: string, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });

const machineClient = async (url: string, era: 'legacy' | 'modern'): Promise<Client> => {
  const client = new Client(
    { name: 'machine', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const authProvider = new ClientCredentialsProvider({
    clientId: issuer.clientId,
    clientSecret: issuer.clientSecret,
    expectedIssuer: issuer.issuer,
    scope: 'mcp',
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider }));
  return client;
};

describe('promptyard-server as an OAuth resource server', () => {
  it('challenges a request without a token and publishes where to get one', async () => {
    const server = await start();
    const response = await post(server.url);
    expect(response.status).toBe(401);
    const metadataUrl = `${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp`;
    expect(response.headers.get('www-authenticate')).toBe(`Bearer scope="mcp", resource_metadata="${metadataUrl}"`);
    expect(await (await fetch(metadataUrl)).json()).toMatchObject({
      resource: server.url,
      authorization_servers: [issuer.issuer],
      scopes_supported: ['mcp'],
    });
    expect(server.stderr.text).toMatch(/auth="oauth \(http:\/\/127\.0\.0\.1:\d+\)"/);
  });

  it('stops at start-up on an [auth] mistake, saying what to change', async () => {
    const result = await runCli(['--transport', 'http', '--port', '0'], {
      env: { PROMPTYARD_AUTH_ISSUER: 'http://login.example.com', PROMPTYARD_AUTH_ALGORITHMS: 'HS256' },
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      '[auth] issuer must use https (http is allowed only on a loopback host), got "http://login.example.com"',
    );
    expect(result.stderr).toContain('[auth] algorithms must not include HS256');
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`lets an SDK client with client credentials list and call (${era})`, async () => {
      const server = await start();
      const client = await machineClient(server.url, era);
      const { prompts } = await client.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toContain('review');
      const result = await client.callTool({ name: 'list_prompts', arguments: {} });
      expect(JSON.stringify(result.content)).toContain('review');
      await server.stderr.waitFor(/caller authenticated.*subject=machine.*client=machine/);
    });
  }

  it('refuses bad tokens with 401, a missing scope with 403, and never logs a token', async () => {
    const server = await start();
    const wrongAudience = await issuer.token({ resource: 'https://elsewhere.example/mcp' });
    const expired = await issuer.sign({
      sub: 'ada',
      scope: 'mcp',
      iss: issuer.issuer,
      aud: server.url,
      exp: Math.floor(Date.now() / 1000) - 600,
    });
    for (const [what, token] of [
      ['wrong audience', wrongAudience],
      ['expired', expired],
    ] as const) {
      const response = await post(server.url, { authorization: `Bearer ${token}` });
      expect(response.status, what).toBe(401);
      expect(response.headers.get('www-authenticate'), what).toMatch(/^Bearer error="invalid_token"/);
    }
    const narrow = await issuer.token({ clientId: issuer.narrowClientId, scope: 'profile' });
    const forbidden = await post(server.url, { authorization: `Bearer ${narrow}` });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('www-authenticate')).toMatch(/error="insufficient_scope".*scope="mcp"/);
    expect((await post(server.url, { authorization: 'Bearer' })).status).toBe(401);
    expect((await post(server.url, { authorization: `Bearer ${'a'.repeat(1024 * 1024)}` })).status).toBe(431);
    expect((await post(`${server.url}?access_token=${narrow}`)).status).toBe(400);
    await server.stderr.waitFor(/lacks a required scope.*subject=narrow/);
    for (const token of [wrongAudience, expired, narrow]) expect(server.stderr.text).not.toContain(token.split('.')[2]);
  });

  it("picks up the provider's new signing key without a restart", async () => {
    const server = await start();
    expect((await post(server.url, { authorization: `Bearer ${await issuer.token({ resource: server.url })}` })).status).toBe(200);
    await issuer.rotateKeys();
    const signedWithNewKey = await issuer.token({ resource: server.url });
    // A key id it has not seen makes the server fetch the key set again (at most every 5 s).
    await eventually(
      () => post(server.url, { authorization: `Bearer ${signedWithNewKey}` }).then((answer) => answer.status),
      (status) => status === 200,
      10_000,
    );
  });

  it('fails closed while the issuer is unreachable, stays up, and recovers', async () => {
    issuer.setJwks('slow');
    const server = await start({ PROMPTYARD_AUTH_TIMEOUT_MS: '300' });
    const token = await issuer.token({ resource: server.url });
    const started = performance.now();
    const response = await post(server.url, { authorization: `Bearer ${token}` });
    expect(response.status).toBe(503);
    expect(performance.now() - started).toBeLessThan(3000);
    expect((await fetch(`${new URL(server.url).origin}/health`)).status).toBe(200);
    issuer.setJwks('ok');
    await eventually(
      () => post(server.url, { authorization: `Bearer ${token}` }).then((answer) => answer.status),
      (status) => status === 200,
      10_000,
    );
  });
});
