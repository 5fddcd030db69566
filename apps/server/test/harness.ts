import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { isAlive, Output, runToCompletion } from '../../../test-support/output.js';
import type { Completed } from '../../../test-support/output.js';

export { isAlive, Output } from '../../../test-support/output.js';

/** The built binary: black-box tests exercise exactly what users run. */
export const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

const temporary: string[] = [];
const children = new Set<ChildProcess>();
const clients = new Set<Client>();
const pids = new Set<number>();

/** Writes `files` (relative path → content) into a fresh temporary folder. */
export const makeFolder = async (files: Readonly<Record<string, string | Buffer>>): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-e2e-'));
  temporary.push(dir);
  await writeFiles(dir, files);
  return dir;
};

export const writeFiles = async (dir: string, files: Readonly<Record<string, string | Buffer>>): Promise<void> => {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
};

export interface StdioServer {
  readonly client: Client;
  readonly stderr: Output;
  readonly pid: number;
}

const childEnv = (env: Readonly<Record<string, string>> = {}): Record<string, string> => {
  const base: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[key] !== undefined) base[key] = process.env[key] as string;
  return { ...base, ...env };
};

/** Spawns `promptyard-server` over stdio and connects the SDK client to it. */
export const startStdio = async (
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; client?: ConstructorParameters<typeof Client>[1]; cli?: string } = {},
): Promise<StdioServer> => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [options.cli ?? cli, ...args],
    env: childEnv(options.env),
    stderr: 'pipe',
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  const stderr = new Output();
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  const client = new Client({ name: 'promptyard-e2e', version: '1.0.0' }, options.client);
  clients.add(client);
  await client.connect(transport);
  const pid = transport.pid as number;
  pids.add(pid);
  return { client, stderr, pid };
};

export interface HttpServer {
  readonly url: string;
  readonly child: ChildProcess;
  readonly stderr: Output;
}

/** Spawns `promptyard-server --transport http --port 0` and waits for the URL it prints. */
export const startHttp = async (args: readonly string[], options: { env?: Record<string, string> } = {}): Promise<HttpServer> => {
  const child = spawn(process.execPath, [cli, '--transport', 'http', '--port', '0', ...args], {
    env: childEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const stderr = new Output();
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdout?.on('data', (chunk: Buffer) => stderr.push(chunk));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${stderr.text}`))),
  );
  const match = await Promise.race([stderr.waitFor(/listening on (http:\/\/\S+)/), exited]);
  return { url: match[1] as string, child, stderr };
};

export type Era = 'legacy' | 'modern';

/** Connects the SDK client over Streamable HTTP in the given protocol era. */
export const connectHttp = async (url: string, options: { era?: Era; token?: string; listChanged?: boolean } = {}): Promise<Client> => {
  const client = new Client(
    { name: 'promptyard-e2e', version: '1.0.0' },
    options.era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  clients.add(client);
  const transport = new StreamableHTTPClientTransport(
    new URL(url),
    options.token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${options.token}` } } },
  );
  await client.connect(transport);
  return client;
};

/** Spawns the binary with piped stdio, tracked for cleanup. */
export const spawnCli = (
  args: readonly string[],
  options: { env?: Record<string, string> } = {},
): ChildProcess & { stdin: Writable; stdout: Readable; stderr: Readable } => {
  const child = spawn(process.execPath, [cli, ...args], { env: childEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(child);
  return child;
};

/** Runs the binary to completion (for --help, --version and config errors). */
export const runCli = (
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; cli?: string } = {},
): Promise<Completed> => runToCompletion(options.cli ?? cli, args, { env: childEnv(options.env), cwd: options.cwd, track: children });

export const waitForExit = (child: ChildProcess, timeoutMs = 10_000): Promise<number | null> =>
  child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('process did not exit')), timeoutMs);
        child.once('exit', (code) => {
          clearTimeout(timer);
          resolve(code);
        });
      });

/** Closes every client, kills every spawned process by PID and removes temporary folders. */
export const cleanup = async (): Promise<void> => {
  await Promise.allSettled([...clients].map((client) => client.close()));
  clients.clear();
  for (const child of children) if (child.pid !== undefined && child.exitCode === null) child.kill('SIGKILL');
  children.clear();
  for (const pid of pids) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  pids.clear();
  await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
};

/** Resolves when `predicate` holds, polling an async probe (for effects with no event to await). */
export const eventually = async <T>(probe: () => Promise<T>, predicate: (value: T) => boolean, timeoutMs = 5000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (predicate(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

/** A prompt message's text (undefined for a message that is not text). */
export const messageText = (message: { content: { type: string; text?: string } } | undefined): string | undefined => message?.content.text;
