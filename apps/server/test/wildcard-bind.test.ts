import { afterEach, describe, expect, it } from 'vitest';
import { expectedUrls, getWithHost } from '../../../test-support/host-header.js';
import { promptFiles } from './fixtures.js';
import { cleanup, connectHttp, makeFolder, startHttp } from './harness.js';

afterEach(cleanup);

describe('promptyard-server --host 0.0.0.0', () => {
  it('prints the addresses clients can use and the allowed_hosts hint, and serves them', async () => {
    const dir = await makeFolder(promptFiles);
    const server = await startHttp(['--host', '0.0.0.0', '--prompts', dir, '--no-watch']);
    const { port } = new URL(server.url);
    const [loopback, ...others] = expectedUrls(Number(port), '/mcp');
    expect(server.url).toBe(loopback);
    await server.stderr.waitFor(/allowed_hosts \(or PROMPTYARD_TRANSPORT_ALLOWED_HOSTS\)/);
    expect(server.stderr.text).not.toContain('0.0.0.0:');
    if (others.length > 0) expect(server.stderr.text).toContain(`also reachable at ${others.join(', ')}`);
    else console.log('this machine has no non-loopback IPv4 address: only 127.0.0.1 is checked');
    // A browser page on this machine (MCP Inspector) passes the Origin check too.
    const inspector = await getWithHost(loopback as string, '/health', new URL(loopback as string).host, {
      origin: 'http://localhost:6274',
    });
    expect(inspector.status).toBe(200);
    // The printed addresses are accepted by the Host check.
    for (const url of [loopback, ...others]) {
      const client = await connectHttp(url as string);
      expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0);
    }
  });

  it('logs a refused Host once, naming it and the setting that accepts it', async () => {
    const dir = await makeFolder(promptFiles);
    const server = await startHttp(['--host', '0.0.0.0', '--prompts', dir, '--no-watch']);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const refused = await getWithHost(server.url, '/health', 'mcp.example.com:8080');
      expect(refused.status).toBe(403);
      expect(refused.body).toContain('Invalid Host: mcp.example.com');
    }
    expect((await getWithHost(server.url, '/health', 'other.example')).status).toBe(403);
    await server.stderr.waitFor(/refused a request for Host "other\.example"/);
    const warnings = server.stderr.text.match(/refused a request for Host "mcp\.example\.com"[^\n]*/g) ?? [];
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      'add "mcp.example.com" to [transport] allowed_hosts (or PROMPTYARD_TRANSPORT_ALLOWED_HOSTS); accepted now: localhost, 127.0.0.1, [::1]',
    );
    // Once allowed, the name is served.
    const allowed = await startHttp(['--host', '0.0.0.0', '--prompts', dir, '--no-watch'], {
      env: { PROMPTYARD_TRANSPORT_ALLOWED_HOSTS: 'mcp.example.com' },
    });
    expect(allowed.url).toMatch(/^http:\/\/mcp\.example\.com:\d+\/mcp$/);
    expect((await getWithHost(`http://127.0.0.1:${new URL(allowed.url).port}/mcp`, '/health', 'mcp.example.com')).status).toBe(200);
  });
});
