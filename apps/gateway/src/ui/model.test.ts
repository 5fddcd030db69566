import { describe, expect, it } from 'vitest';
import { createLogger } from '@promptyard/core';
import { Router } from '@promptyard/router';
import { parseGatewayConfig, routerConfigOf } from '../config/gateway-config.js';
import { createUiModel } from './model.js';

describe('createUiModel', () => {
  it('puts the gateway’s own log records in the log as server "gateway", and only there', async () => {
    const written: string[] = [];
    const logger = createLogger({ level: 'info', scope: 'gateway', write: (line) => written.push(line) });
    const router = new Router(routerConfigOf(parseGatewayConfig('[servers]\n', { file: 'gateway.toml' })), { logger, version: '0.0.0' });
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

  it('shows each backend stderr line at the level it states, info when none', async () => {
    const logger = createLogger({ level: 'error', write: () => {} });
    // A "server" that writes three lines to stderr and exits (not restarted within the test).
    const script =
      "console.error('WARNING:root:disk almost full'); console.error('[error] boom'); console.error('just talking'); process.exit(1);";
    const config = `[restart]\ninitial_ms = 60000\nmax_ms = 60000\n[servers.noisy]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ["-e", ${JSON.stringify(script)}]\n`;
    const router = new Router(routerConfigOf(parseGatewayConfig(config, { file: 'gateway.toml' })), { logger, version: '0.0.0' });
    const model = createUiModel(router, { logger });
    await router.start();
    await expect.poll(() => model.logs().length).toBe(3);
    expect(model.logs().map(({ server, level, source, text }) => ({ server, level, source, text }))).toEqual([
      { server: 'noisy', level: 'warning', source: 'stderr', text: 'WARNING:root:disk almost full' },
      { server: 'noisy', level: 'error', source: 'stderr', text: '[error] boom' },
      { server: 'noisy', level: 'info', source: 'stderr', text: 'just talking' },
    ]);
    model.close();
    await router.close();
  });
});
