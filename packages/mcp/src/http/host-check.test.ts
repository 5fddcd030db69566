import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLogger } from '@promptyard/core';
import type { LogRecord } from '@promptyard/core';
import { describe, expect, it } from 'vitest';
import { loadServerSdk } from '../sdk.js';
import { createHostCheck } from './host-check.js';

const request = (headers: Record<string, string>): IncomingMessage => ({ headers }) as unknown as IncomingMessage;

/** A response that keeps its status and body. */
const response = (): ServerResponse & { status?: number; body?: string | undefined } => {
  const res = {
    headersSent: false,
    writeHead(status: number) {
      res.status = status;
      return res;
    },
    end(body?: string) {
      res.body = body;
      return res;
    },
  } as unknown as ServerResponse & { status?: number; body?: string | undefined };
  return res;
};

const setup = async () => {
  const records: LogRecord[] = [];
  const logger = createLogger({ level: 'debug', write: () => {} });
  logger.subscribe((record) => records.push(record));
  const check = createHostCheck({
    sdk: await loadServerSdk(),
    allowedHosts: ['localhost', '127.0.0.1'],
    allowedOrigins: ['localhost'],
    logger,
  });
  return { check, warnings: () => records.filter((record) => record.level === 'warning').map((record) => record.message) };
};

describe('createHostCheck', () => {
  it('refuses a Host that is not accepted with 403, and tells the operator once per name how to accept it', async () => {
    const { check, warnings } = await setup();
    expect(check.refuse(request({ host: '127.0.0.1:3000' }), response())).toBe(false);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const res = response();
      expect(check.refuse(request({ host: 'mcp.example.com:3000' }), res)).toBe(true);
      expect(res.status).toBe(403);
      expect(res.body).toContain('Invalid Host: mcp.example.com');
    }
    check.refuse(request({ host: 'other.example' }), response());
    expect(warnings()).toEqual([
      'refused a request for Host "mcp.example.com" (403 Invalid Host): if clients reach this endpoint by that name, add "mcp.example.com" to [transport] allowed_hosts (or PROMPTYARD_TRANSPORT_ALLOWED_HOSTS); accepted now: localhost, 127.0.0.1. Further refusals of this name are not logged.',
      expect.stringMatching(/^refused a request for Host "other\.example" .* add "other\.example" to \[transport\] allowed_hosts/),
    ]);
  });

  it('names allowed_origins for a browser Origin, and stops reporting after many different names', async () => {
    const { check, warnings } = await setup();
    expect(check.refuse(request({ host: 'localhost', origin: 'https://evil.example' }), response())).toBe(true);
    expect(warnings()[0]).toMatch(
      /^refused a request for Origin "evil\.example" .*\[transport\] allowed_origins \(or PROMPTYARD_TRANSPORT_ALLOWED_ORIGINS\)/,
    );
    for (let index = 0; index < 150; index += 1) check.refuse(request({ host: `scan-${index}.example` }), response());
    expect(warnings()).toHaveLength(101);
    expect(warnings().at(-1)).toBe('more than 100 different Host and Origin names were refused: further refusals are not logged');
  });
});
