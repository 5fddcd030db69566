/**
 * Black-box harness for promptyard-gateway: spawns the BUILT binary (`pnpm build` first) over stdio
 * or HTTP with a config written to a temporary folder, collects its stderr, connects SDK clients,
 * and tracks every process it started so `cleanup()` can end them by PID. `noLeftovers(pid)` checks
 * that a gateway's shutdown took its backends with it.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Output, runToCompletion } from '../../../test-support/output.js';
import type { Completed } from '../../../test-support/output.js';
import { isAlive, killTree, listDescendants, startConformanceServer, startEverythingHttp, startHttpBackend } from './backends/spawn.js';
import type { BackendEra, HttpBackend, HttpBackendOptions, ListenFraming, StdioCommand } from './backends/spawn.js';

export { Output } from '../../../test-support/output.js';
export { everythingCommand, isAlive, listDescendants, stdioBackendCommand } from './backends/spawn.js';
export type { HttpBackend, ListenFraming, StdioCommand } from './backends/spawn.js';

/** The built binary: black-box tests exercise exactly what users run. */
export const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

type ClientOptions = NonNullable<ConstructorParameters<typeof Client>[1]>;

const temporary: string[] = [];
const clients = new Set<Client>();
const gatewayPids = new Set<number>();
const children = new Set<ChildProcess>();
const httpBackends = new Set<HttpBackend>();

// ——— configs ———

/** A TOML value: JSON strings, numbers, booleans and string arrays are valid TOML as written. */
const tomlValue = (value: unknown): string => {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return `{ ${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)} = ${tomlValue(item)}`)
      .join(', ')} }`;
  }
  return JSON.stringify(value);
};

export interface TomlServer {
  readonly command?: StdioCommand;
  readonly url?: string;
  readonly transport?: 'streamable-http' | 'sse';
  /** Further keys of `[servers.<id>]`: prefix, enabled, timeout, tools = { allow = […] } … */
  readonly [key: string]: unknown;
}

/** A gateway.toml: `gateway` keys, then one `[servers.<id>]` table per entry, in order. */
export const gatewayToml = (
  servers: Readonly<Record<string, TomlServer>>,
  gateway: Readonly<Record<string, unknown>> = {},
  extra = '',
): string => {
  const lines: string[] = [];
  if (Object.keys(gateway).length > 0)
    lines.push('[gateway]', ...Object.entries(gateway).map(([key, value]) => `${key} = ${tomlValue(value)}`), '');
  if (extra !== '') lines.push(extra, '');
  for (const [id, server] of Object.entries(servers)) {
    lines.push(`[servers.${JSON.stringify(id)}]`);
    const { command, ...rest } = server;
    if (command !== undefined) {
      lines.push(`command = ${tomlValue(command.command)}`, `args = ${tomlValue(command.args)}`);
      if (command.env !== undefined) lines.push(`env = ${tomlValue(command.env)}`);
    }
    for (const [key, value] of Object.entries(rest)) if (value !== undefined) lines.push(`${key} = ${tomlValue(value)}`);
    lines.push('');
  }
  return lines.join('\n');
};

/** Writes `files` (name → content) into a fresh temporary folder, removed by `cleanup()`. */
export const makeFolder = async (files: Readonly<Record<string, string>>): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-gw-e2e-'));
  temporary.push(dir);
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  return dir;
};

/**
 * The gateways' state folder (pins, OAuth tokens) for this test file: never the user's own. Each test's
 * cleanup empties it; a gateway makes what it needs again.
 */
export const stateHome = join(tmpdir(), `promptyard-gw-state-${process.pid}`);

const childEnv = (env: Readonly<Record<string, string>> = {}): Record<string, string> => {
  const base: Record<string, string> = { XDG_CONFIG_HOME: stateHome };
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[key] !== undefined) base[key] = process.env[key] as string;
  return { ...base, ...env };
};

// ——— backends started by the test itself ———

/** test-server.mjs over Streamable HTTP, tracked for cleanup. */
export const httpBackend = async (
  name: string,
  era: BackendEra = 'both',
  misbehave: Omit<HttpBackendOptions, 'name' | 'era'> = {},
): Promise<HttpBackend> => {
  const backend = await startHttpBackend({ name, era, ...misbehave });
  httpBackends.add(backend);
  return backend;
};

/** server-everything over legacy HTTP+SSE, tracked for cleanup. */
export const everythingSse = async (): Promise<HttpBackend> => {
  const backend = await startEverythingHttp('sse');
  httpBackends.add(backend);
  return backend;
};

/** The conformance suite's reference server (conformance/everything-server.mjs), tracked for cleanup; `loose`: `--loose`. */
export const conformanceServer = async (listen: ListenFraming = 'sse', loose = false): Promise<HttpBackend> => {
  const backend = await startConformanceServer(listen, loose);
  httpBackends.add(backend);
  return backend;
};

// ——— the gateway ———

export interface GatewayOptions {
  /** The config file's content; `file` names it (gateway.toml, claude_desktop_config.json …). */
  readonly config: string;
  readonly file?: string;
  readonly args?: readonly string[];
  readonly env?: Record<string, string>;
  readonly client?: ClientOptions;
  /** HTTP: false resolves once the gateway listens, without waiting for its servers' first attempts. */
  readonly waitForServers?: boolean;
}

export interface StdioGateway {
  readonly client: Client;
  readonly pid: number;
  readonly stderr: Output;
  /** The config file, for hot-reload edits. */
  readonly configPath: string;
}

export interface HttpGateway {
  readonly url: string;
  readonly origin: string;
  readonly pid: number;
  readonly child: ChildProcess;
  readonly stderr: Output;
  readonly configPath: string;
}

const writeConfig = async (options: GatewayOptions): Promise<string> => {
  const file = options.file ?? 'gateway.toml';
  const dir = await makeFolder({ [file]: options.config });
  return join(dir, file);
};

export const newClient = (options: ClientOptions = {}): Client => {
  const client = new Client({ name: 'gateway-e2e', version: '1.0.0' }, options);
  clients.add(client);
  return client;
};

/** Spawns the gateway over stdio with the SDK client as its parent and connects. */
export const startStdioGateway = async (options: GatewayOptions): Promise<StdioGateway> => {
  const configPath = await writeConfig(options);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, '--config', configPath, ...(options.args ?? [])],
    env: childEnv(options.env),
    stderr: 'pipe',
  });
  const stderr = new Output();
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  const client = newClient(options.client);
  try {
    await client.connect(transport);
  } catch (error) {
    if (transport.pid !== null && transport.pid !== undefined) killTree(transport.pid);
    throw new Error(`gateway did not start: ${(error as Error).message}\nstderr:\n${stderr.text}`);
  }
  const pid = transport.pid as number;
  gatewayPids.add(pid);
  return { client, pid, stderr, configPath };
};

/** Spawns `promptyard-gateway --transport http --port 0` and waits for the URL it prints. */
export const startHttpGateway = async (options: GatewayOptions): Promise<HttpGateway> => {
  const configPath = await writeConfig(options);
  const child = spawn(process.execPath, [cli, '--config', configPath, '--transport', 'http', '--port', '0', ...(options.args ?? [])], {
    env: childEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  gatewayPids.add(child.pid as number);
  const stderr = new Output();
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdout?.on('data', (chunk: Buffer) => stderr.push(chunk));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`gateway exited with ${code}:\n${stderr.text}`))),
  );
  exited.catch(() => {});
  const match = await Promise.race([stderr.waitFor(/listening on (http:\/\/\S+)/, 20_000), exited]);
  // The gateway serves before its servers are up; these tests start once each has made its first attempt.
  if (options.waitForServers !== false) await Promise.race([stderr.waitFor(/\d+ of \d+ servers ready/, 20_000), exited]);
  const url = match[1] as string;
  return { url, origin: new URL(url).origin, pid: child.pid as number, child, stderr, configPath };
};

export type Era = 'legacy' | 'modern' | 'auto';

/**
 * Connects an SDK client over Streamable HTTP: the default (2025-11-25 session) client, or auto
 * negotiation. `onWire` sees every message as it came off the wire, before the client decodes it.
 */
export const connectHttp = async (
  url: string,
  options: { era?: Era; token?: string; client?: ClientOptions; onWire?: (message: JSONRPCMessage) => void } = {},
): Promise<Client> => {
  const client = newClient({
    ...(options.era === 'auto' || options.era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {}),
    ...options.client,
  });
  const transport = new StreamableHTTPClientTransport(
    new URL(url),
    options.token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${options.token}` } } },
  );
  // The client chains an `onmessage` found on its transport ahead of its own.
  if (options.onWire !== undefined) transport.onmessage = options.onWire;
  await client.connect(transport);
  return client;
};

/** Runs the binary to completion (status, --help, config errors). */
export const runCli = (args: readonly string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<Completed> =>
  runToCompletion(cli, args, { env: childEnv(options.env), cwd: options.cwd, track: children });

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Ends a gateway the way a host does (SIGTERM) and reports every process that outlived it: the
 * gateway itself or any of its descendants as they were just before the signal. `[]` means clean.
 * The survivors are then SIGKILLed so a failing check leaks nothing.
 */
export const noLeftovers = async (gatewayPid: number, timeoutMs = 8000): Promise<number[]> => {
  const before = [gatewayPid, ...listDescendants(gatewayPid)];
  gatewayPids.delete(gatewayPid);
  try {
    process.kill(gatewayPid, 'SIGTERM');
  } catch {
    // already gone
  }
  const deadline = Date.now() + timeoutMs;
  while (before.some(isAlive) && Date.now() < deadline) await sleep(25);
  const survivors = before.filter(isAlive);
  for (const pid of survivors) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  return survivors;
};

/**
 * Shuts every gateway down (checking each left nothing behind), closes clients, stops the test's
 * own backends and removes temporary folders. Returns the PIDs that outlived their gateway.
 */
export const cleanup = async (): Promise<number[]> => {
  const survivors = (await Promise.all([...gatewayPids].map((pid) => noLeftovers(pid)))).flat();
  await Promise.allSettled([...clients].map((client) => client.close()));
  clients.clear();
  for (const child of children) if (child.pid !== undefined && isAlive(child.pid)) killTree(child.pid);
  children.clear();
  await Promise.allSettled([...httpBackends].map((backend) => backend.stop()));
  httpBackends.clear();
  await Promise.all([...temporary.splice(0), stateHome].map((dir) => rm(dir, { recursive: true, force: true })));
  return survivors;
};

// ——— small helpers for assertions ———

export const textOf = (result: { content?: unknown }): string =>
  ((result.content ?? []) as { type: string; text?: string }[])
    .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
    .join('\n');

/** Resolves when `predicate` holds, polling an async probe (for effects with no event to await). */
export const eventually = async <T>(probe: () => Promise<T>, predicate: (value: T) => boolean, timeoutMs = 8000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (predicate(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await sleep(50);
  }
};

/** GET /health of an HTTP gateway. */
export const health = async (gateway: { readonly origin: string }, headers: Record<string, string> = {}): Promise<HealthBody> => {
  const response = await fetch(`${gateway.origin}/health`, { headers });
  if (!response.ok) throw new Error(`/health answered ${response.status}`);
  return (await response.json()) as HealthBody;
};

export interface HealthBody {
  readonly servers: {
    id: string;
    state: string;
    era?: string;
    transport: string;
    restarts: number;
    lastError?: string;
    pid?: number;
    counts: Record<string, number>;
  }[];
  readonly collisions: { kind: string; name: string; kept: string; dropped: string }[];
  readonly counts: Record<string, number>;
  readonly [key: string]: unknown;
}
