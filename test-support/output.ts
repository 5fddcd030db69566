import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

/**
 * Helpers shared by the black-box tests of every app (they spawn the built binaries and watch their
 * output and processes).
 */

/** Collects a stream's text and lets a test wait for a pattern. */
export class Output {
  text = '';
  private waiters: { pattern: RegExp; resolve: (match: RegExpMatchArray) => void }[] = [];

  push(chunk: Buffer | string): void {
    this.text += chunk.toString();
    this.waiters = this.waiters.filter((waiter) => {
      const match = this.text.match(waiter.pattern);
      if (match) waiter.resolve(match);
      return !match;
    });
  }

  /** Resolves with the first match of `pattern` in everything written so far or later. */
  waitFor(pattern: RegExp, timeoutMs = 10_000): Promise<RegExpMatchArray> {
    const match = this.text.match(pattern);
    if (match) return Promise.resolve(match);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern} in:\n${this.text}`)), timeoutMs);
      this.waiters.push({
        pattern,
        resolve: (found) => {
          clearTimeout(timer);
          resolve(found);
        },
      });
    });
  }
}

/** Whether a process exists (signal 0). */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export interface Completed {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `node <script> <args>` to completion and collects its output (`--help`, `status`, config
 * errors). `track` sees the child while it runs, so a harness can kill it if a test fails first.
 */
export const runToCompletion = (
  script: string,
  args: readonly string[],
  options: {
    readonly env: Record<string, string>;
    readonly cwd?: string | undefined;
    readonly track?: { add(child: ChildProcess): unknown; delete(child: ChildProcess): unknown };
  },
): Promise<Completed> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    options.track?.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => {
      options.track?.delete(child);
      resolve({ code, stdout, stderr });
    });
  });

/**
 * Spawns a system tool (`redis-server`, `nginx`, `prometheus`) and waits until its output matches
 * `ready`; rejects with its output if it exits first, or with the install hint if it is missing.
 */
export const startTool = async (
  name: string,
  command: string,
  args: readonly string[],
  ready: RegExp,
  timeoutMs = 20_000,
): Promise<{ readonly child: ChildProcess; readonly output: Output }> => {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = new Output();
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (error) => reject(new Error(`${name} did not start (run bash scripts/ensure-tools.sh): ${error.message}`)));
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}:\n${output.text}`)));
  });
  failed.catch(() => {});
  await Promise.race([output.waitFor(ready, timeoutMs), failed]);
  return { child, output };
};
