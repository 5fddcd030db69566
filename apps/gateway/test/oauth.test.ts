import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer } from '../../../test-support/oidc-provider.js';
import type { TestIssuer } from '../../../test-support/oidc-provider.js';
import { cleanup, gatewayToml, httpBackend, startHttpGateway, textOf } from './harness.js';

/** promptyard-gateway in resource-server mode: `[auth]` in gateway.toml, a real OpenID provider, the SDK client with client credentials. */
let issuer: TestIssuer;
let resources: string[] = [];
beforeAll(async () => {
  issuer = await startTestIssuer({ resources: () => resources });
});
afterAll(() => issuer.close());
afterEach(async () => {
  await cleanup();
});

describe('promptyard-gateway as an OAuth resource server', () => {
  it('challenges without a token and serves a client that logged in by client credentials', async () => {
    const backend = await httpBackend('alpha');
    const gateway = await startHttpGateway({
      config: gatewayToml(
        { alpha: { url: backend.url } },
        {},
        `[auth]\nissuer = ${JSON.stringify(issuer.issuer)}\nrequired_scopes = ["mcp"]\n`,
      ),
    });
    resources = [gateway.url];
    const refused = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer scope="mcp", resource_metadata="${gateway.origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(await (await fetch(`${gateway.origin}/.well-known/oauth-protected-resource`)).json()).toMatchObject({
      resource: gateway.url,
      authorization_servers: [issuer.issuer],
    });

    const client = new Client({ name: 'machine', version: '1.0.0' });
    const authProvider = new ClientCredentialsProvider({
      clientId: issuer.clientId,
      clientSecret: issuer.clientSecret,
      expectedIssuer: issuer.issuer,
      scope: 'mcp',
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { authProvider }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('alpha_echo');
      expect(textOf(await client.callTool({ name: 'alpha_echo', arguments: { text: 'hi' } }))).toContain('hi');
    } finally {
      await client.close();
    }
  });
});
