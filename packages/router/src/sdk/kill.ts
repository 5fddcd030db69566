import { killGroup, liveChildren } from './stdio-transport.js';

/** Kills every backend process group still alive; synchronous, so it can run in an `exit` handler. */
export const killAllChildren = (): void => {
  for (const pid of liveChildren) killGroup(pid, 'SIGKILL');
  liveChildren.clear();
};
