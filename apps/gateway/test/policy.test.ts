import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer } from '../../../test-support/oidc-provider.js';
import type { TestIssuer } from '../../../test-support/oidc-provider.js';
import { cleanup, gatewayToml, httpBackend, startHttpGateway, textOf } from './harness.js';
import type { HttpGateway } from './harness.js';

/**
 * `[[policy]]` in the gateway, black-box: two backends, a real OpenID provider, and two machine
 * accounts — the design group may use one server only, the platform group both.
 */
let issuer: TestIssuer;
let resources: string[] = [];
const clients = new Set<Client>();
beforeAll(async () => {
  issuer = await startTestIssuer({ resources: () => resources, members: { designer: ['design'], operator: ['platform'] } });
});
afterAll(() => issuer.close());
afterEach(async () => {
  await Promise.allSettled([...clients].map((client) => client.close()));
  clients.clear();
  await cleanup();
});

const policy = `[auth]
issuer = "ISSUER"
required_scopes = ["mcp"]

[[policy]]
name = "design"
groups = ["design"]
servers = ["alpha"]

[[policy]]
name = "platform"
groups = ["platform"]
servers = ["*"]
tools = ["catalog_tools"]

[[policy]]
name = "no add"
effect = "deny"
tools = ["*_add"]
`;

const start = async (): Promise<HttpGateway> => {
  const [alpha, beta] = await Promise.all([httpBackend('alpha'), httpBackend('beta')]);
  const gateway = await startHttpGateway({
    config: gatewayToml({ alpha: { url: alpha.url }, beta: { url: beta.url } }, {}, policy.replace('ISSUER', issuer.issuer)),
  });
  resources = [gateway.url];
  return gateway;
};

const connect = async (url: string, clientId: string, era: 'legacy' | 'modern' = 'legacy'): Promise<Client> => {
  const client = new Client(
    { name: clientId, version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  clients.add(client);
  const token = await issuer.token({ clientId });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
};

const names = (items: readonly { readonly name: string }[]): string[] => items.map((item) => item.name).sort();

describe('promptyard-gateway [[policy]]', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`shows the design group one server and the platform group both (${era})`, async () => {
      const gateway = await start();
      const designer = await connect(gateway.url, 'designer', era);
      const operator = await connect(gateway.url, 'operator', era);
      const designTools = names((await designer.listTools()).tools);
      expect(designTools).toContain('alpha_echo');
      expect(designTools.some((name) => name.startsWith('beta_'))).toBe(false);
      // The gateway's own tools belong to no server: only a rule naming them allows them.
      expect(designTools).not.toContain('catalog_tools');
      expect(designTools).not.toContain('alpha_add');
      expect(names((await designer.listPrompts()).prompts)).toEqual(['alpha_greet', 'alpha_pid_prompt']);
      const designResources = (await designer.listResources()).resources.map((resource) => resource.uri);
      expect(designResources.length).toBeGreaterThan(0);
      expect(designResources.every((uri) => uri.includes('alpha'))).toBe(true);

      const operatorTools = names((await operator.listTools()).tools);
      expect(operatorTools).toEqual(expect.arrayContaining(['alpha_echo', 'beta_echo', 'catalog_tools']));
      expect(operatorTools).not.toContain('beta_add');
      expect(names((await operator.listPrompts()).prompts)).toEqual(['alpha_greet', 'alpha_pid_prompt', 'beta_greet', 'beta_pid_prompt']);
      if (era === 'modern') expect(((await designer.listTools()) as { cacheScope?: string }).cacheScope).toBe('private');
    });
  }

  it('refuses and audits a call to a server the caller may not use', async () => {
    const gateway = await start();
    const designer = await connect(gateway.url, 'designer');
    expect(textOf(await designer.callTool({ name: 'alpha_echo', arguments: { text: 'hi' } }))).toContain('hi');
    await expect(designer.callTool({ name: 'beta_echo', arguments: { text: 'hi' } })).rejects.toThrow(
      'No tool "beta_echo" is available to you: it does not exist, or the server\'s [[policy]] does not allow it for you.',
    );
    await expect(designer.getPrompt({ name: 'beta_greet', arguments: {} })).rejects.toThrow('No prompt "beta_greet" is available to you');
    await gateway.stderr.waitFor(
      /\[gateway:audit\] access allowed subject=designer client=designer kind=tool name=alpha_echo reason="allowed by \[\[policy\]\] #1 \\"design\\""/,
    );
    await gateway.stderr.waitFor(
      /\[gateway:audit\] access denied subject=designer client=designer kind=tool name=beta_echo reason="no \[\[policy\]\] rule allows it"/,
    );
    const operator = await connect(gateway.url, 'operator');
    await expect(operator.callTool({ name: 'beta_add', arguments: { a: 1, b: 2 } })).rejects.toThrow(
      'No tool "beta_add" is available to you',
    );
    await gateway.stderr.waitFor(
      /access denied subject=operator client=operator kind=tool name=beta_add reason="denied by \[\[policy\]\] #3 \\"no add\\""/,
    );
  });

  it('lets the meta tools show and call only what the caller may use', async () => {
    const metaPolicy = policy.replace(
      'servers = ["alpha"]',
      'servers = ["alpha"]\ntools = ["catalog_tools", "describe_tool", "search_tools", "call_tool"]',
    );
    const [alpha, beta] = await Promise.all([httpBackend('alpha'), httpBackend('beta')]);
    const gateway = await startHttpGateway({
      config: gatewayToml({ alpha: { url: alpha.url }, beta: { url: beta.url } }, {}, metaPolicy.replace('ISSUER', issuer.issuer)),
    });
    resources = [gateway.url];
    const designer = await connect(gateway.url, 'designer');
    const catalog = textOf(await designer.callTool({ name: 'catalog_tools', arguments: {} }));
    expect(catalog).toContain('alpha_echo');
    expect(catalog).not.toContain('beta_');
    expect(catalog).not.toMatch(/alpha_add\(/);
    expect(catalog).toMatch(/ from 1 servers?\./);
    expect(textOf(await designer.callTool({ name: 'search_tools', arguments: { query: 'echo' } }))).not.toContain('beta_echo');
    // A server the caller may use nothing of is as unknown as one that does not exist.
    expect(textOf(await designer.callTool({ name: 'catalog_tools', arguments: { server: 'beta' } }))).toBe(
      'Unknown server "beta". Servers: alpha.',
    );
    const described = await designer.callTool({ name: 'describe_tool', arguments: { name: 'beta_echo' } });
    expect(described.isError).toBe(true);
    expect(textOf(described)).not.toContain('inputSchema');
    expect(
      textOf(await designer.callTool({ name: 'call_tool', arguments: { name: 'alpha_echo', arguments: { text: 'via meta' } } })),
    ).toContain('via meta');
    const refused = await designer.callTool({ name: 'call_tool', arguments: { name: 'beta_echo', arguments: { text: 'hi' } } }).then(
      (result) => textOf(result),
      (error: unknown) => String(error),
    );
    expect(refused).toContain('No tool "beta_echo" is available to you');
    await gateway.stderr.waitFor(/\[gateway:audit\] access denied subject=designer client=designer kind=tool name=beta_echo/);
  });
});
