import { constants } from 'node:os';
import { render } from 'ink';
import { createLogger, describeError } from '@promptyard/core';
import { killAllChildren, Router } from '@promptyard/router';
import type { GatewayOverrides } from '../args.js';
import { routerConfigOf } from '../config/gateway-config.js';
import type { GatewayConfig } from '../config/gateway-config.js';
import { resolveProfile } from '../config/profiles.js';
import { openPins, watchConfig } from '../main.js';
import { App } from './app.js';
import { createUiModel } from './model.js';

export interface RunUiOptions {
  readonly file: string;
  readonly config: GatewayConfig;
  readonly overrides: GatewayOverrides;
  readonly version: string;
}

// The alternate screen: the UI draws on its own page and the shell's scrollback is back on quit.
const enterScreen = '\u001B[?1049h\u001B[H';
const leaveScreen = '\u001B[?1049l';

/**
 * `promptyard-gateway ui`: the router started from the config (and reloaded when it changes) behind
 * the terminal UI. The gateway's own logs go to the Logs panel, never to the terminal the UI draws
 * on. Quitting closes every server; no child outlives the UI.
 */
export const runUi = async ({ file, config, overrides, version }: RunUiOptions): Promise<void> => {
  const logger = createLogger({ level: config.logLevel, scope: 'gateway', write: () => {} });
  const profile = resolveProfile(config, overrides.profile)?.name;
  // The UI runs a gateway of its own: its servers' definitions are reviewed against the same pins
  // (the file's; with [cluster] they are in Redis, which the UI does not join, so it shows none).
  const pins = config.cluster === undefined ? await openPins(config, file, undefined, logger) : undefined;
  const router = new Router(routerConfigOf(config), { logger, version, pins });
  const model = createUiModel(router, { logger, profile, pins });
  // While the UI owns the terminal, unexpected errors go to the Logs panel, not over the screen.
  for (const event of ['unhandledRejection', 'uncaughtException'] as const) {
    process.removeAllListeners(event);
    process.on(event, (reason: unknown) => logger.error(`unexpected error (kept running): ${describeError(reason)}`));
  }

  let onScreen = process.stdout.isTTY;
  const restoreScreen = (): void => {
    if (onScreen) process.stdout.write(leaveScreen);
    onScreen = false;
  };
  process.once('exit', restoreScreen);
  if (onScreen) process.stdout.write(enterScreen);

  const app = render(<App model={model} />, { exitOnCtrlC: true, patchConsole: true });
  const quitting = app.waitUntilExit();
  // A closed terminal (SIGHUP) or a kill ends the UI the way q does, so the servers are closed too.
  const stop = (): void => app.unmount();
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const signal of signals) process.on(signal, stop);
  process.stdout.on('error', () => {});

  // Servers start while the UI shows them starting; quitting does not wait for a slow one.
  let closing = false;
  void router.start().then(() => {
    if (closing) return;
    const status = router.status();
    logger.notice(`${status.backends.filter((backend) => backend.state === 'ready').length} of ${status.backends.length} servers ready`);
  });
  const watching =
    overrides.watch === false
      ? undefined
      : watchConfig(file, overrides, router, config, logger).catch((error: unknown) => {
          logger.error(`config changes will not be reloaded: ${describeError(error)}`);
          return undefined;
        });

  await quitting.catch(() => {});
  closing = true;
  // A second signal while closing ends the servers and the UI at once.
  for (const signal of signals) {
    process.off(signal, stop);
    process.once(signal, () => {
      killAllChildren();
      process.exit(128 + constants.signals[signal]);
    });
  }
  app.unmount();
  restoreScreen();
  const force = setTimeout(() => {
    killAllChildren();
    process.exit(0);
  }, 5000);
  force.unref();
  const stopWatching = await watching;
  await stopWatching?.().catch(() => {});
  model.close();
  await router.close().catch(() => {});
  await pins?.close().catch(() => {});
  killAllChildren();
};
