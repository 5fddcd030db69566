import type { SectionSpec } from '@promptyard/core';

/**
 * `[transport]` of every serving binary: how `serveStdio` / `serveHttp` are reached. One definition,
 * so the server and the gateway take the same keys with the same defaults and checks.
 */
export const transportSection = {
  type: {
    type: 'string',
    enum: ['stdio', 'http'],
    default: 'stdio',
    doc: 'stdio for clients that launch the program; http to serve many (PROMPTYARD_TRANSPORT).',
  },
  host: { type: 'string', default: '127.0.0.1', doc: 'HTTP bind address (PROMPTYARD_HOST).' },
  port: { type: 'integer', min: 0, max: 65535, default: 3000, doc: 'HTTP port, 0 picks a free one (PROMPTYARD_PORT).' },
  path: { type: 'string', default: '/mcp', doc: 'HTTP path of the MCP endpoint.' },
  allowed_hosts: {
    type: 'string[]',
    doc: 'Host header names accepted (default: loopback names on a loopback bind, every address of this machine on 0.0.0.0 or ::, else the bind host).',
  },
  allowed_origins: {
    type: 'string[]',
    doc: 'Origin host names accepted from browsers (default: loopback names, and on 0.0.0.0 or :: every address of this machine).',
  },
  public_url: {
    type: 'string',
    doc: 'The URL clients reach the MCP endpoint at, behind a proxy: the OAuth resource and the default [auth] audience (default: the URL served).',
  },
  auth_token: { type: 'string', doc: 'Require "Authorization: Bearer <token>" (prefer PROMPTYARD_AUTH_TOKEN).' },
  max_body_bytes: { type: 'integer', min: 1024, default: 1_048_576, doc: 'Largest accepted HTTP request body.' },
} as const satisfies SectionSpec;
