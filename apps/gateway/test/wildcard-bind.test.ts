import { afterEach, describe, expect, it } from 'vitest';
import { expectedUrls, getWithHost } from '../../../test-support/host-header.js';
import { cleanup, connectHttp, gatewayToml, startHttpGateway, stdioBackendCommand } from './harness.js';

afterEach(async () => {
  await cleanup();
});

describe('promptyard-gateway --host 0.0.0.0', () => {
  it('prints the addresses clients can use with the allowed_hosts hint, and logs a refused Host once', async () => {
    const gateway = await startHttpGateway({
      config: gatewayToml({ alpha: { command: stdioBackendCommand({ name: 'alpha' }) } }),
      args: ['--host', '0.0.0.0'],
    });
    const [loopback, ...others] = expectedUrls(Number(new URL(gateway.url).port), '/mcp');
    expect(gateway.url).toBe(loopback);
    await gateway.stderr.waitFor(/allowed_hosts \(or PROMPTYARD_TRANSPORT_ALLOWED_HOSTS\)/);
    expect(gateway.stderr.text).not.toContain('0.0.0.0:');
    if (others.length > 0) expect(gateway.stderr.text).toContain(`also reachable at ${others.join(', ')}`);
    else console.log('this machine has no non-loopback IPv4 address: only 127.0.0.1 is checked');
    for (const url of [loopback, ...others]) {
      const client = await connectHttp(url as string);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    }
    for (let attempt = 0; attempt < 2; attempt += 1) expect((await getWithHost(gateway.url, '/health', 'gw.example')).status).toBe(403);
    expect((await getWithHost(gateway.url, '/health', 'other.example')).status).toBe(403);
    await gateway.stderr.waitFor(/refused a request for Host "other\.example"/);
    const warnings = gateway.stderr.text.match(/refused a request for Host "gw\.example"[^\n]*/g) ?? [];
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('add "gw.example" to [transport] allowed_hosts (or PROMPTYARD_TRANSPORT_ALLOWED_HOSTS)');
  });
});
