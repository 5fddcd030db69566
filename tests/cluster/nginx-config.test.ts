/**
 * deploy/nginx/promptyard.conf: the settings a balancer in front of replicas needs, and the rendering
 * the cluster tests apply to it (their replicas' ports, a free listen port).
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { nginxConfigPath, renderNginxConfig } from '../../test-support/nginx.js';

describe('deploy/nginx/promptyard.conf', () => {
  it('balances round-robin without affinity and passes SSE through unbuffered', async () => {
    const source = await readFile(nginxConfigPath, 'utf8');
    const directives = source
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim())
      .filter((line) => line !== '');
    for (const affinity of ['ip_hash', 'hash ', 'sticky', 'least_conn'])
      expect(directives.some((line) => line.startsWith(affinity))).toBe(false);
    for (const required of [
      'proxy_http_version 1.1;',
      'proxy_set_header Connection "";',
      'proxy_buffering off;',
      'proxy_cache off;',
      'proxy_request_buffering off;',
      'proxy_next_upstream error timeout;',
      'proxy_set_header Mcp-Session-Id $http_mcp_session_id;',
      'proxy_set_header Last-Event-ID $http_last_event_id;',
      'proxy_set_header traceparent $http_traceparent;',
      'proxy_set_header Authorization $http_authorization;',
    ]) {
      expect(directives).toContain(required);
    }
    // A POST already sent to a replica is never resent.
    expect(source).not.toMatch(/^\s*proxy_next_upstream[^;#]*non_idempotent/m);
    expect(directives.filter((line) => /^server 127\.0\.0\.1:\d+ max_fails=\d+ fail_timeout=\d+s;$/.test(line))).toHaveLength(3);
  });

  it('renders one upstream line per replica, keeping its parameters, and the listen port', async () => {
    const rendered = renderNginxConfig(await readFile(nginxConfigPath, 'utf8'), [40001, 40002, 40003, 40004], 39999);
    const servers = rendered.split('\n').filter((line) => /^\s*server 127\.0\.0\.1:/.test(line));
    expect(servers.map((line) => line.trim())).toEqual(
      [40001, 40002, 40003, 40004].map((port) => `server 127.0.0.1:${port} max_fails=1 fail_timeout=10s;`),
    );
    expect(rendered).toMatch(/\n\s*listen 127\.0\.0\.1:39999;/);
    expect(rendered).not.toMatch(/listen 8080;/);
  });
});
