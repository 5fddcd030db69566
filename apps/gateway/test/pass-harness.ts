/**
 * Black-box harness for the gateway's pass-through and resilience tests: writes a gateway.toml,
 * spawns the BUILT gateway (dist/cli.js) over stdio or HTTP, connects SDK clients that answer
 * sampling, elicitation and roots like a host, and kills every process it started (by PID).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
// The SDK client workaround the gateway uses upstream, from its source: not part of the router's API.
import { deliverNotificationsFirst } from '../../../packages/router/src/sdk/upstream.js';
import { Output } from '../../../test-support/output.js';
import { answerLikeAHost, defaultRoots, hostCapabilities } from './backends/host-client.js';
import { isAlive, killTree, listDescendants, stdioBackendCommand, testServerPath } from './backends/spawn.js';

export { Output } from '../../../test-support/output.js';
export { isAlive, listDescendants, startHttpBackend, testServerPath } from './backends/spawn.js';

/** The built binary: these tests exercise exactly what users run. */
export const gatewayCli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

export type ClientOptions = NonNullable<ConstructorParameters<typeof Client>[1]>;

const folders: string[] = [];
const processes = new Set<ChildProcess>();
const clients = new Set<Client>();
/** Every PID seen below a gateway, so cleanup reaches backends a killed gateway left behind. */
const seenPids = new Set<number>();

/** A TOML string (JSON strings are valid TOML basic strings). */
const q = (value: string): string => JSON.stringify(value);

export interface ServerEntry {
  readonly command?: string;
  readonly args?: readonly string[];
  readonly url?: string;
  /** Extra raw TOML lines for the server table (`tool_timeout = 500`). */
  readonly extra?: readonly string[];
}

/** `[servers.<id>]` entry running test-server.mjs over stdio under `--name <name>`. */
export const testServer = (name: string, extra: readonly string[] = []): ServerEntry => ({ ...stdioBackendCommand({ name }), extra });

/** A test-server behind `sh -c`, which first starts a `sleep` grandchild in the same process group. */
export const leakyTestServer = (name: string): ServerEntry => ({
  command: 'sh',
  args: ['-c', `sleep 1000 & exec ${q(process.execPath)} ${q(testServerPath)} --name ${name}`],
});

export interface GatewayConfigSpec {
  readonly servers: Readonly<Record<string, ServerEntry>>;
  /** Raw TOML put before the servers (`[restart]\ninitial_ms = 100`). */
  readonly preamble?: string;
}

export const renderConfig = ({ servers, preamble = '' }: GatewayConfigSpec): string => {
  const tables = Object.entries(servers).map(([id, entry]) =>
    [
      `[servers.${id}]`,
      ...(entry.command === undefined ? [] : [`command = ${q(entry.command)}`]),
      ...(entry.args === undefined ? [] : [`args = [${entry.args.map(q).join(', ')}]`]),
      ...(entry.url === undefined ? [] : [`url = ${q(entry.url)}`]),
      ...(entry.extra ?? []),
    ].join('\n'),
  );
  return `${preamble}\n\n${tables.join('\n\n')}\n`;
};

/** Writes gateway.toml into a fresh temporary folder; returns its path. */
export const writeConfig = async (spec: GatewayConfigSpec): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-gw-e2e-'));
  folders.push(dir);
  const file = join(dir, 'gateway.toml');
  await writeFile(file, renderConfig(spec));
  return file;
};

const gatewayEnv = (): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[key] !== undefined) env[key] = process.env[key] as string;
  return env;
};

/** Remembers a gateway's descendants now, so cleanup can kill them even after the gateway died. */
export const noteDescendants = (pid: number): number[] => {
  const found = listDescendants(pid);
  for (const child of found) seenPids.add(child);
  return found;
};

export const roots = defaultRoots;

export interface HostClient {
  readonly client: Client;
  /** The roots the client answers with; tests may replace them. */
  roots: { uri: string; name: string }[];
}

/** A client that answers sampling, elicitation and roots like a host would. */
export const makeClient = (extra: ClientOptions = {}): HostClient => {
  const client = new Client({ name: 'gateway-e2e', version: '1.0.0' }, { capabilities: hostCapabilities, ...extra });
  const host: HostClient = { client, roots: [...roots] };
  answerLikeAHost(client, () => host.roots);
  clients.add(client);
  return host;
};

export interface StdioGateway extends HostClient {
  readonly pid: number;
  readonly stderr: Output;
  readonly config: string;
}

/** Spawns the gateway over stdio (`--no-watch` unless `watch`) and connects a host client. */
export const startStdioGateway = async (
  spec: GatewayConfigSpec,
  options: { watch?: boolean; client?: ClientOptions } = {},
): Promise<StdioGateway> => {
  const config = await writeConfig(spec);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [gatewayCli, '--config', config, ...(options.watch === true ? [] : ['--no-watch'])],
    env: gatewayEnv(),
    stderr: 'pipe',
  });
  const stderr = new Output();
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  const host = makeClient(options.client);
  await host.client.connect(transport);
  deliverNotificationsFirst(transport);
  const pid = transport.pid as number;
  seenPids.add(pid);
  noteDescendants(pid);
  return Object.assign(host, { pid, stderr, config });
};

export interface GatewayProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly stderr: Output;
  readonly config: string;
  readonly exited: Promise<number | null>;
}

/** Spawns the gateway (or one of its commands: `status`) without a client (its stdin a pipe the test controls). */
export const spawnGateway = (config: string, args: readonly string[], command: readonly string[] = []): GatewayProcess => {
  const child = spawn(process.execPath, [gatewayCli, ...command, '--config', config, ...args], {
    env: gatewayEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  processes.add(child);
  const pid = child.pid as number;
  seenPids.add(pid);
  const stderr = new Output();
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdout?.on('data', () => {});
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
  return { child, pid, stderr, config, exited };
};

export interface HttpGateway extends GatewayProcess {
  readonly url: string;
  health(): Promise<Health>;
  server(id: string): Promise<ServerHealth>;
}

export interface ServerHealth {
  readonly id: string;
  readonly state: string;
  readonly restarts: number;
  readonly lastError?: string;
  readonly pid?: number;
  readonly era?: string;
  readonly counts: { readonly tools: number };
  /** Calls the gateway has forwarded to the server and not yet seen answered. */
  readonly inFlight: number;
}

export interface Health {
  readonly servers: readonly ServerHealth[];
}

/** Spawns the gateway with `--transport http --port 0` and waits for the URL it prints. */
export const startHttpGateway = async (spec: GatewayConfigSpec, options: { watch?: boolean } = {}): Promise<HttpGateway> => {
  const config = await writeConfig(spec);
  const gateway = spawnGateway(config, ['--transport', 'http', '--port', '0', ...(options.watch === true ? [] : ['--no-watch'])]);
  const died = gateway.exited.then((code) => {
    throw new Error(`gateway exited with ${code}:\n${gateway.stderr.text}`);
  });
  const match = await Promise.race([gateway.stderr.waitFor(/listening on (http:\/\/\S+)/, 20_000), died]);
  // The gateway serves before its servers are up; these tests start once each has made its first attempt.
  await Promise.race([gateway.stderr.waitFor(/\d+ of \d+ servers ready/, 20_000), died]);
  died.catch(() => {});
  const url = match[1] as string;
  noteDescendants(gateway.pid);
  const health = async (): Promise<Health> => {
    const response = await fetch(new URL('/health', url));
    return (await response.json()) as Health;
  };
  const server = async (id: string): Promise<ServerHealth> => {
    const found = (await health()).servers.find((entry) => entry.id === id);
    if (found === undefined) throw new Error(`no server "${id}" in /health`);
    return found;
  };
  return { ...gateway, url, health, server };
};

/** Connects a host client to an HTTP gateway (default: the 2025-era session client). */
export const connectHttp = async (url: string, extra: ClientOptions = {}): Promise<HostClient> => {
  const host = makeClient(extra);
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await host.client.connect(transport);
  deliverNotificationsFirst(transport);
  return host;
};

/** The text blocks of a tool result, joined by newlines. */
export const textOf = (result: { content?: unknown }): string =>
  ((result.content ?? []) as { type: string; text?: string }[])
    .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
    .join('\n');

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a value other than `undefined`, or fails after `timeoutMs`. */
export const until = async <T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
  what = 'a condition',
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError === undefined ? '' : `: ${String(lastError)}`}`);
    await sleep(50);
  }
};

/** Waits until none of `pids` is alive; returns those still alive after `timeoutMs`. */
export const waitDead = async (pids: readonly number[], timeoutMs = 5000): Promise<number[]> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = pids.filter((pid) => isAlive(pid) && !isZombie(pid));
    if (alive.length === 0 || Date.now() > deadline) return alive;
    await sleep(50);
  }
};

/** A zombie has exited; it lingers only until its parent reaps it. */
const isZombie = (pid: number): boolean => {
  try {
    const stat = readStat(pid);
    return stat === 'Z' || stat === 'X';
  } catch {
    return true;
  }
};

const readStat = (pid: number): string => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '';
};

/** Guards against PID reuse: only a gateway, a test backend or the fixture's `sleep` is ours to kill. */
const isOurs = (pid: number): boolean => {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    return cmdline.includes(gatewayCli) || cmdline.includes(testServerPath) || cmdline.startsWith('sleep 1000');
  } catch {
    return false;
  }
};

/** Closes every client, kills every gateway and every backend seen below one, removes temp folders. */
export const cleanup = async (): Promise<void> => {
  await Promise.allSettled([...clients].map((client) => client.close()));
  clients.clear();
  for (const child of processes) {
    if (child.exitCode === null && child.signalCode === null) {
      for (const pid of listDescendants(child.pid as number)) seenPids.add(pid);
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      killTree(child.pid as number);
      await Promise.race([exited, sleep(3000)]);
    }
  }
  processes.clear();
  for (const pid of seenPids) {
    for (const child of listDescendants(pid)) seenPids.add(child);
  }
  for (const pid of seenPids) {
    if (isAlive(pid) && isOurs(pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  seenPids.clear();
  await Promise.allSettled(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
};
