import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { childEnvironment } from './child-env.js';
import { killGroup, liveChildren } from './kill.js';

// No SDK import here: the point is to start the servers while the gateway is still loading it.

export interface ChildSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** false: the minimal environment instead of the gateway's (see child-env.ts). */
  readonly inheritEnv: boolean;
  readonly cwd?: string | undefined;
}

/** A child in its own process group (stopping it stops what it spawned), stdio piped. */
export const spawnChild = (spec: ChildSpec): ChildProcess =>
  spawn(spec.command, [...spec.args], {
    env: childEnvironment({ parent: process.env, inherit: spec.inheritEnv, env: spec.env }),
    ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
    windowsHide: true,
  });

/** A child started before its transport existed, with what happened to it meanwhile. */
export interface EarlyChild {
  readonly child: ChildProcess;
  /** Settles once the process started (or failed to: `error`). */
  readonly started: Promise<void>;
  error: Error | undefined;
  /** The process ended and its stdio closed (a child that writes nothing to stdout can, before it is taken over). */
  closed: boolean;
  /** stderr written before the transport took the child over. */
  readonly stderr: Buffer[];
}

const keyOf = (spec: ChildSpec): string => JSON.stringify([spec.command, spec.args, spec.env, spec.inheritEnv, spec.cwd ?? null]);

const waiting = new Map<string, EarlyChild>();

/**
 * Starts a stdio server now, for the transport that connects to it later to take over
 * (`adoptEarlyChild`): the server's own start-up then overlaps the gateway's loading of the MCP SDK.
 * Its stdout waits in the pipe; its stderr is kept until then.
 */
export const spawnEarly = (spec: ChildSpec): void => {
  const key = keyOf(spec);
  if (waiting.has(key)) return;
  const child = spawnChild(spec);
  const stderr: Buffer[] = [];
  const onStderr = (chunk: Buffer): void => {
    stderr.push(chunk);
  };
  child.stderr?.on('data', onStderr);
  const early: EarlyChild = {
    child,
    stderr,
    error: undefined,
    closed: false,
    started: new Promise((resolve) => {
      child.once('spawn', () => {
        if (child.pid !== undefined) liveChildren.add(child.pid);
        resolve();
      });
      child.once('error', (error) => {
        early.error = error;
        resolve();
      });
    }),
  };
  child.once('close', () => {
    early.closed = true;
  });
  waiting.set(key, early);
};

/** The child `spawnEarly` started for this spec, once: the caller owns it from now on. */
export const adoptEarlyChild = (spec: ChildSpec): EarlyChild | undefined => {
  const key = keyOf(spec);
  const early = waiting.get(key);
  if (early === undefined) return undefined;
  waiting.delete(key);
  early.child.stderr?.removeAllListeners('data');
  early.child.removeAllListeners('error');
  return early;
};

/** Ends the early children no transport took over (a server stopped or changed before it connected). */
export const endEarlyChildren = (): void => {
  for (const { child } of waiting.values()) {
    if (child.pid === undefined) continue;
    liveChildren.delete(child.pid);
    killGroup(child.pid, 'SIGKILL');
  }
  waiting.clear();
};
