import { describe, expect, it } from 'vitest';
import { createLogger } from '@promptyard/core';
import { parseGatewayConfig, Router } from '@promptyard/router';
import { createUiModel } from './model.js';

describe('createUiModel', () => {
  it('puts the gateway’s own log records in the log as server "gateway", and only there', async () => {
    const written: string[] = [];
    const logger = createLogger({ level: 'info', scope: 'gateway', write: (line) => written.push(line) });
    const router = new Router(parseGatewayConfig('[servers]\n', { file: 'gateway.toml' }), { logger, version: '0.0.0' });
    const model = createUiModel(router, { logger });
    let notified = 0;
    const stop = model.subscribe(() => notified++);
    logger.notice('config reloaded', { added: 'gamma', removed: undefined });
    logger.child('backend').warn('server crashed', { server: 'beta' });
    logger.debug('below the level');
    logger.info('server stderr', { server: 'alpha', line: 'doubled' });
    expect(model.logs().map(({ server, level, text }) => ({ server, level, text }))).toEqual([
      { server: 'gateway', level: 'notice', text: 'config reloaded added="gamma"' },
      { server: 'gateway', level: 'warning', text: '[gateway:backend] server crashed server="beta"' },
    ]);
    await expect.poll(() => notified).toBe(1);
    stop();
    model.close();
    logger.error('after close');
    expect(model.logs()).toHaveLength(2);
    await router.close();
  });
});
