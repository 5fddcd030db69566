/**
 * A binary's config file, watched while it serves: each change (a save, or the file made anew) runs
 * `onChange` once the writing settled, one change at a time, in order. chokidar is loaded only when a
 * binary watches its config.
 */
import { describeError } from '@promptyard/core';
import type { Logger } from '@promptyard/core';

/** Watches `file`; resolves once watching, with a function that stops and waits for a change being applied. */
export const watchConfigFile = async (file: string, onChange: () => Promise<void>, logger: Logger): Promise<() => Promise<void>> => {
  const { watch } = await import('chokidar');
  const watcher = watch(file, { ignoreInitial: true, awaitWriteFinish: { stabilityThreshold: 50, pollInterval: 20 } });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const apply = (): void => {
    running = running.then(onChange).catch((error: unknown) => {
      logger.error('a config change could not be applied', { file, reason: describeError(error) });
    });
  };
  // An editor's save is often a burst of events (write, rename, chmod): one change for the burst.
  const schedule = (): void => {
    clearTimeout(timer);
    timer = setTimeout(apply, 50);
  };
  watcher.on('add', schedule).on('change', schedule);
  watcher.on('error', (error) => logger.warn('config watcher error', { reason: describeError(error) }));
  await new Promise<void>((ready) => watcher.once('ready', () => ready()));
  return async () => {
    clearTimeout(timer);
    await watcher.close();
    await running;
  };
};
