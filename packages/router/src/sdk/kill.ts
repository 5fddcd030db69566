// No SDK import here: the gateway loads this at start, and the MCP client only once a server starts.

/** Kills a child's whole process group (it was spawned as its leader), falling back to the child alone. */
export const killGroup = (pid: number, signal: NodeJS.Signals): void => {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
};

/** Every live child's pid, so an exiting gateway can kill their groups synchronously. */
export const liveChildren = new Set<number>();

/** Kills every backend process group still alive; synchronous, so it can run in an `exit` handler. */
export const killAllChildren = (): void => {
  for (const pid of liveChildren) killGroup(pid, 'SIGKILL');
  liveChildren.clear();
};
