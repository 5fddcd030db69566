/**
 * Starting, finding and stopping the real backends (test-server.mjs, server-everything) for the
 * gateway's black-box tests and benchmark.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
export { isAlive } from '../../../../test-support/output.js';

/** Absolute path of the configurable test backend. */
export const testServerPath = fileURLToPath(new URL('./test-server.mjs', import.meta.url));

export type BackendEra = 'both' | 'legacy';

export interface StdioCommand {
  readonly command: string;
  readonly args: string[];
  readonly env?: Record<string, string>;
}

export interface HttpBackend {
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Everything the process wrote to stderr so far. */
  readonly stderr: () => string;
  /** Kills the process (and anything it spawned) and waits for it to exit. */
  stop(): Promise<void>;
}

/** `node test-server.mjs --name <name>` over stdio, for StdioClientTransport or a gateway config. */
export const stdioBackendCommand = ({ name }: { name: string }): StdioCommand => ({
  command: process.execPath,
  args: [testServerPath, '--name', name],
});

const waitForLine = (child: ChildProcess, pattern: RegExp, output: { text: string }, timeoutMs: number): Promise<RegExpMatchArray> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${pattern}; stderr:\n${output.text}`)),
      timeoutMs,
    );
    const check = (): void => {
      const match = output.text.match(pattern);
      if (match) finish(undefined, match);
    };
    const onExit = (code: number | null): void =>
      finish(new Error(`process exited with ${code} before printing ${pattern}; stderr:\n${output.text}`));
    const finish = (error?: Error, match?: RegExpMatchArray): void => {
      clearTimeout(timer);
      child.stderr?.off('data', check);
      child.stdout?.off('data', check);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(match as RegExpMatchArray);
    };
    child.stderr?.on('data', check);
    child.stdout?.on('data', check);
    child.once('exit', onExit);
    check();
  });

const startProcess = async (
  command: StdioCommand,
  pattern: RegExp,
  toUrl: (match: RegExpMatchArray) => string,
  timeoutMs = 15_000,
): Promise<HttpBackend> => {
  const child = spawn(command.command, command.args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...command.env },
  });
  const output = { text: '' };
  const collect = (chunk: Buffer): void => {
    output.text += chunk.toString();
  };
  child.stderr?.on('data', collect);
  child.stdout?.on('data', collect);
  const pid = child.pid as number;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    killTree(pid);
    await exited;
  };
  try {
    const match = await waitForLine(child, pattern, output, timeoutMs);
    return { url: toUrl(match), pid, child, stderr: () => output.text, stop };
  } catch (error) {
    await stop();
    throw error;
  }
};

/** How a test backend frames its `subscriptions/listen` stream (listen-front.mjs). */
export type ListenFraming = 'sse' | 'json-lines' | 'none';

/** The conformance suite's reference server (conformance/everything-server.mjs) over Streamable HTTP on a free port. */
export const startConformanceServer = (listen: ListenFraming = 'sse', loose = false): Promise<HttpBackend> =>
  startProcess(
    {
      command: process.execPath,
      args: [
        fileURLToPath(new URL('../conformance/everything-server.mjs', import.meta.url)),
        '--port',
        '0',
        '--listen',
        listen,
        ...(loose ? ['--loose'] : []),
      ],
    },
    /listening on (http:\/\/\S+)/,
    (match) => match[1] as string,
  );

/** Spawns `test-server.mjs --transport http --port 0` and resolves once it prints its URL. */
export interface HttpBackendOptions {
  readonly name: string;
  readonly era?: BackendEra;
  /** How `subscriptions/listen` misbehaves (see test-server.mjs). */
  readonly listen?: 'ok' | 'error' | 'silent' | 'drop-once' | 'json-lines' | 'none';
  /** The `ttlMs` of its 2026-07-28 list results. */
  readonly ttlMs?: number;
  /** Never answer the 2026-07-28 `server/discover` probe. */
  readonly silentDiscover?: boolean;
  /** Further flags (`--redescribe-tool` …). */
  readonly args?: readonly string[];
}

export const startHttpBackend = ({
  name,
  era = 'both',
  listen = 'ok',
  silentDiscover = false,
  ttlMs,
  args = [],
}: HttpBackendOptions): Promise<HttpBackend> =>
  startProcess(
    {
      command: process.execPath,
      args: [
        testServerPath,
        '--name',
        name,
        '--transport',
        'http',
        '--era',
        era,
        '--port',
        '0',
        '--listen',
        listen,
        ...(silentDiscover ? ['--silent-discover'] : []),
        ...(ttlMs === undefined ? [] : ['--ttl-ms', String(ttlMs)]),
        ...args,
      ],
    },
    /listening on (http:\/\/\S+)/,
    (match) => match[1] as string,
  );

const require = createRequire(fileURLToPath(new URL('../../package.json', import.meta.url)));

/** `dist/index.js` of @modelcontextprotocol/server-everything, resolved from apps/gateway. */
export const everythingEntry = (): string =>
  join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');

export type EverythingMode = 'stdio' | 'sse' | 'streamableHttp';

/**
 * The command for the reference server in one mode. The HTTP modes listen on `PORT` (3001 when
 * unset) on every interface and do not report port 0's real port, so pass a port from `freePort()`.
 */
export const everythingCommand = (mode: EverythingMode, port?: number): StdioCommand => ({
  command: process.execPath,
  args: [everythingEntry(), mode],
  ...(port === undefined ? {} : { env: { PORT: String(port) } }),
});

/** A port that was free a moment ago on 127.0.0.1 (for servers that cannot report port 0). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

/**
 * Starts server-everything in `sse` (legacy HTTP+SSE: GET /sse, POST /message) or `streamableHttp`
 * (/mcp) mode on a free port; `url` is the endpoint a client connects to.
 */
export const startEverythingHttp = async (mode: 'sse' | 'streamableHttp'): Promise<HttpBackend> => {
  const port = await freePort();
  const pattern = mode === 'sse' ? /Server is running on port (\d+)/ : /listening on port (\d+)/;
  return startProcess(everythingCommand(mode, port), pattern, () => `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`);
};

/** PIDs of every live process below `pid`, children first then theirs (reads /proc; ps may be absent). */
export const listDescendants = (pid: number): number[] => {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 2 (comm) may hold spaces and parentheses; the fields after the last ')' are fixed.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const state = fields[0];
      const parent = Number(fields[1]);
      if (state === 'Z' || state === 'X') continue;
      const list = children.get(parent) ?? [];
      list.push(Number(entry));
      children.set(parent, list);
    } catch {
      // the process ended while we looked
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    for (const child of children.get(next) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
};

/** SIGKILLs `pid` and all its descendants (collected first, so orphans are not missed). */
export const killTree = (pid: number, signal: NodeJS.Signals = 'SIGKILL'): void => {
  for (const target of [...listDescendants(pid).reverse(), pid]) {
    try {
      process.kill(target, signal);
    } catch {
      // already gone
    }
  }
};

/** Resident memory of a process in MB, from /proc/<pid>/status VmRSS. */
export const rssMb = (pid: number): number => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
};
