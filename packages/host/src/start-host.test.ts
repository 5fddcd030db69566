import { describe, expect, it } from 'vitest';
import { createLogger } from '@promptyard/core';
import type { LogRecord } from '@promptyard/core';
import { createMcpServerBlueprint } from '@promptyard/mcp';
import { startHost } from './start-host.js';

const recorded = (): { logger: ReturnType<typeof createLogger>; lines: string[] } => {
  const logger = createLogger({ level: 'debug', write: () => {} });
  const lines: string[] = [];
  logger.subscribe((record: LogRecord) => lines.push(`${record.level} ${record.message}`));
  return { logger, lines };
};

const blueprint = (logger: ReturnType<typeof createLogger>) =>
  createMcpServerBlueprint({
    name: 'test',
    version: '1.0.0',
    logger,
    prompts: { list: () => ({ items: [] }), get: () => Promise.resolve({ messages: [] }) },
    complete: () => Promise.resolve({ completion: { values: [] } }),
    logs: { subscribe: () => () => {} },
    onListChanged: () => () => {},
  });

describe('startHost', () => {
  it('over stdio: no metrics without a listener of their own, and a cluster is refused with a warning', async () => {
    const { logger, lines } = recorded();
    const host = await startHost({
      noun: 'gateway',
      logger,
      http: false,
      telemetry: { metrics: true, serviceName: 'test' },
      noteLevel: 'notice',
      cluster: { redisUrl: 'redis://127.0.0.1:1' },
    });
    expect(host).toMatchObject({ metrics: undefined, tracing: undefined, cluster: undefined });
    expect(lines).toEqual(['warning [cluster] redis_url applies to the HTTP transport only: a stdio gateway serves its one client alone']);
  });

  it('over HTTP: metrics on the endpoint, the warnings a user needs, the listening notice, and closing in order', async () => {
    const { logger, lines } = recorded();
    const host = await startHost({
      noun: 'server',
      logger,
      http: true,
      telemetry: { metrics: true, serviceName: 'test' },
      noteLevel: 'info',
      cluster: { redisUrl: undefined },
    });
    expect(host.metrics).toBeDefined();
    const served = await host.serve(await blueprint(logger), {
      http: { host: '127.0.0.1', port: 0, maxBodyBytes: 1_000_000 },
      policy: true,
      counts: () => ({ prompts: 3 }),
      warnOpenBind: true,
    });
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(lines).toEqual([
      'warning [[policy]] is set but callers are not identified: set [auth] issuer (or a token), else every caller may use everything',
      `notice listening on ${served.url}`,
    ]);
    const steps: string[] = [];
    await host.close({ before: async () => steps.push('before'), after: async () => steps.push('after') });
    expect(steps).toEqual(['before', 'after']);
    await expect(fetch(served.url as string)).rejects.toThrow();
  });
});
