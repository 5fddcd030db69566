import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer } from '../../../test-support/oidc-provider.js';
import type { TestIssuer } from '../../../test-support/oidc-provider.js';
import { freePort } from '../../../test-support/prometheus.js';
import {
  cleanup,
  cli,
  connectHttp,
  eventually,
  gatewayToml,
  health,
  httpBackend,
  makeFolder,
  Output,
  runCli,
  startHttpGateway,
  textOf,
} from './harness.js';

/**
 * The gateway as an OAuth client of the servers behind it. The protected upstream is the built
 * promptyard-server in resource-server mode; the authorization server is a real OpenID provider on
 * loopback with short-lived access tokens, refresh tokens, dynamic registration and revocation.
 */
const serverCli = fileURLToPath(new URL('../../server/dist/cli.js', import.meta.url));
const ACCESS_TOKEN_TTL_S = 4;

let issuer: TestIssuer;
const resources: string[] = [];
const spawned = new Set<ChildProcess>();
beforeAll(async () => {
  issuer = await startTestIssuer({ resources: () => resources, accessTokenTtl: ACCESS_TOKEN_TTL_S });
});
afterAll(() => issuer.close());
afterEach(async () => {
  for (const child of spawned) if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
  spawned.clear();
  resources.length = 0;
  await cleanup();
});

const track = (child: ChildProcess, output: Output): ChildProcess => {
  spawned.add(child);
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  return child;
};

/** promptyard-server over HTTP, accepting only the issuer's tokens for its own URL with scope mcp. */
const protectedServer = async (): Promise<{ url: string; output: Output }> => {
  const prompts = await makeFolder({ 'review.md': '---\ndescription: Review code\n---\nReview {{ code }}' });
  const output = new Output();
  const child = spawn(process.execPath, [serverCli, '--transport', 'http', '--port', '0', '--prompts', prompts], {
    env: {
      ...process.env,
      PROMPTYARD_AUTH_ISSUER: issuer.issuer,
      PROMPTYARD_AUTH_REQUIRED_SCOPES: 'mcp',
      PROMPTYARD_FALLBACK_TOOLS: 'true',
      PROMPTYARD_LOG_LEVEL: 'debug',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child, output);
  const url = (await output.waitFor(/listening on (http:\/\/\S+)/))[1] as string;
  resources.push(url);
  return { url, output };
};

/** `promptyard-gateway login <server>`, with the test as the person in the browser. */
const login = async (configPath: string, env: Record<string, string>, server: string): Promise<string> => {
  const output = new Output();
  const child = track(
    spawn(process.execPath, [cli, 'login', server, '--config', configPath], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
    output,
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const authorizationUrl = (await output.waitFor(/^\s+(http:\/\/\S+\/auth\?\S+)$/m))[1] as string;
  expect(authorizationUrl).toMatch(/code_challenge_method=S256/);
  const redirect = await issuer.authorize(authorizationUrl);
  expect(redirect).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
  const answer = await fetch(redirect);
  expect(answer.status).toBe(200);
  expect(await exited).toBe(0);
  return output.text;
};

interface StoredRecord {
  client?: { client_id: string };
  tokens?: { access_token: string; refresh_token?: string; expires_in: number };
  obtainedAt?: number;
}

const storedFile = async (folder: string): Promise<{ path: string; record: StoredRecord }> => {
  const { readdir } = await import('node:fs/promises');
  const names = (await readdir(folder)).filter((name) => name.endsWith('.json'));
  const path = join(folder, names[0] ?? 'missing.json');
  return { path, record: JSON.parse(await readFile(path, 'utf8')) as StoredRecord };
};

describe('promptyard-gateway as an OAuth client of its servers', () => {
  it('logs in head-lessly, calls the server, refreshes before expiry, and turns a revoked grant into "needs login" fixed by a new login', async () => {
    const upstream = await protectedServer();
    const home = await makeFolder({});
    const env = { XDG_CONFIG_HOME: home };
    const folder = join(home, 'promptyard', 'oauth');
    const config = gatewayToml({ docs: { url: upstream.url, auth: 'oauth' } }, {}, '[restart]\ninitial_ms = 100\nmax_ms = 200\n');
    const configPath = join(await makeFolder({ 'gateway.toml': config }), 'gateway.toml');

    const said = await login(configPath, env, 'docs');
    expect(said).toContain('Logged in to docs');
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    const first = await storedFile(folder);
    expect((await stat(first.path)).mode & 0o777).toBe(0o600);
    expect(first.record.tokens?.refresh_token).toBeDefined();
    expect(first.record.client?.client_id).toBeDefined();

    const gateway = await startHttpGateway({ config, env });
    const client = await connectHttp(gateway.url);
    expect(textOf(await client.callTool({ name: 'docs_list_prompts', arguments: {} }))).toContain('review');

    // The token is replaced before it expires, not after a refused request.
    const refreshed = await eventually(
      () => storedFile(folder),
      (file) => file.record.tokens?.access_token !== first.record.tokens?.access_token,
      15_000,
    );
    expect(refreshed.record.obtainedAt as number).toBeLessThan((first.record.obtainedAt as number) + ACCESS_TOKEN_TTL_S * 1000);
    expect(textOf(await client.callTool({ name: 'docs_list_prompts', arguments: {} }))).toContain('review');

    // Revoked: the next refresh fails, and the server waits for a login instead of restarting.
    await issuer.revoke(refreshed.record.tokens?.refresh_token as string, { clientId: refreshed.record.client?.client_id as string });
    const waiting = await eventually(
      () => health(gateway),
      (body) => body.servers[0]?.state === 'needs-login',
      15_000,
    );
    expect(waiting.servers[0]?.lastError).toContain('run promptyard-gateway login docs');
    const refused = await client
      .callTool({ name: 'docs_list_prompts', arguments: {} })
      .catch((error: unknown) => ({ isError: true, content: [{ type: 'text', text: String(error) }] }));
    expect(textOf(refused)).toContain('needs a login: run promptyard-gateway login docs');
    const status = await runCli(['status', '--config', configPath], { env });
    expect(status.stdout).toMatch(/docs\s+needs-login/);
    expect(status.code).toBe(1);
    // Meanwhile (restarts are 100 ms apart here) nothing restarted it.
    expect((await health(gateway)).servers[0]).toMatchObject({ state: 'needs-login', restarts: 0 });
    expect(gateway.stderr.text).not.toMatch(/server unavailable.*server=docs/);

    // A new login while the gateway runs: it notices the token and connects.
    await login(configPath, env, 'docs');
    await eventually(
      () => health(gateway),
      (body) => body.servers[0]?.state === 'ready',
      15_000,
    );
    const again = await connectHttp(gateway.url);
    expect(textOf(await again.callTool({ name: 'docs_list_prompts', arguments: {} }))).toContain('review');
  }, 90_000);

  it('waits for a first login, then logs in with a configured client on a fixed redirect port and refreshes with it', async () => {
    const upstream = await protectedServer();
    const port = await freePort();
    const registered = await fetch(`${issuer.issuer}/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: [`http://127.0.0.1:${port}/callback`],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const home = await makeFolder({});
    const env = { XDG_CONFIG_HOME: home };
    const config = gatewayToml({
      docs: { url: upstream.url, auth: 'oauth', oauth: { client_id: clientId, redirect_port: port, scopes: ['mcp'] } },
    });
    const configPath = join(await makeFolder({ 'gateway.toml': config }), 'gateway.toml');
    // Never logged in: the gateway serves, the server waits for a login.
    const gateway = await startHttpGateway({ config, env });
    expect((await health(gateway)).servers[0]).toMatchObject({ state: 'needs-login', restarts: 0 });
    expect(gateway.stderr.text).toContain('run promptyard-gateway login docs');

    await login(configPath, env, 'docs');
    const folder = join(home, 'promptyard', 'oauth');
    const first = await storedFile(folder);
    expect(first.record.client).toBeUndefined();
    await eventually(
      () => health(gateway),
      (body) => body.servers[0]?.state === 'ready',
      15_000,
    );
    await eventually(
      () => storedFile(folder),
      (file) => file.record.tokens?.access_token !== first.record.tokens?.access_token,
      15_000,
    );
    const client = await connectHttp(gateway.url);
    expect(textOf(await client.callTool({ name: 'docs_list_prompts', arguments: {} }))).toContain('review');
    expect((await health(gateway)).servers[0]).toMatchObject({ state: 'ready', restarts: 0 });
  }, 60_000);

  it("uses client credentials for a machine account, and never passes its own caller's token on", async () => {
    const upstream = await protectedServer();
    const home = await makeFolder({});
    const config = gatewayToml(
      {
        docs: {
          url: upstream.url,
          auth: 'oauth',
          oauth: { grant: 'client_credentials', client_id: issuer.gatewayClientId, client_secret: '${GATEWAY_SECRET}' },
        },
      },
      {},
      `[auth]\nissuer = ${JSON.stringify(issuer.issuer)}\nrequired_scopes = ["mcp"]\n`,
    );
    const gateway = await startHttpGateway({ config, env: { XDG_CONFIG_HOME: home, GATEWAY_SECRET: issuer.clientSecret } });
    resources.push(gateway.url);
    const bearer = { authorization: `Bearer ${await issuer.token({ resource: gateway.url })}` };
    const docs = (await health(gateway, bearer)).servers[0];
    expect(docs, docs?.lastError).toMatchObject({ state: 'ready' });

    const caller = new Client({ name: 'machine', version: '1.0.0' });
    const authProvider = new ClientCredentialsProvider({
      clientId: issuer.clientId,
      clientSecret: issuer.clientSecret,
      expectedIssuer: issuer.issuer,
      scope: 'mcp',
    });
    await caller.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { authProvider }));
    try {
      expect(textOf(await caller.callTool({ name: 'docs_list_prompts', arguments: {} }))).toContain('review');
    } finally {
      await caller.close();
    }
    // The server saw the gateway's own machine account, and never the caller's token.
    expect(upstream.output.text).toMatch(/caller authenticated.*client=gateway/);
    expect(upstream.output.text).not.toMatch(/client=machine/);
    expect(upstream.output.text).not.toMatch(/invalid_token|token refused/i);
  }, 60_000);

  it("never passes the caller's Authorization header to a backend", async () => {
    const [plain, withHeader] = await Promise.all([httpBackend('plain'), httpBackend('static')]);
    const config = gatewayToml(
      { plain: { url: plain.url }, static: { url: withHeader.url, headers: { Authorization: 'Bearer configured' } } },
      {},
      '[transport]\nauth_token = "caller-secret"',
    );
    const gateway = await startHttpGateway({ config });
    const client = await connectHttp(gateway.url, { token: 'caller-secret' });
    expect(textOf(await client.callTool({ name: 'plain_echo', arguments: { text: 'hi' } }))).toContain('hi');
    expect(textOf(await client.callTool({ name: 'static_echo', arguments: { text: 'hi' } }))).toContain('hi');
    expect(plain.stderr()).not.toContain('Authorization header');
    // The check can see a header: the one the config sets reaches its server.
    expect(withHeader.stderr()).toContain('request with an Authorization header');
  }, 30_000);
});
