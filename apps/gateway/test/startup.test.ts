/**
 * Start-up without waiting for the slowest server: the endpoint answers at once, servers join as
 * they become ready (announced with list_changed), early lists wait within `startup_wait_ms`, and a
 * server that never answers its handshake is ended however the gateway (or `status`) ends. A port
 * in use is reported before any server starts. Black-box: the built gateway and test-server backends.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  cleanup,
  makeClient,
  noteDescendants,
  spawnGateway,
  startStdioGateway,
  testServer,
  testServerPath,
  textOf,
  until,
  waitDead,
  writeConfig,
} from './pass-harness.js';
import type { GatewayConfigSpec, GatewayProcess, ServerEntry } from './pass-harness.js';

const listeners: Server[] = [];
const markers: string[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  await Promise.all(markers.splice(0).map((file) => rm(file, { force: true })));
  await cleanup();
});

/** A test-server that never answers its handshake and ignores SIGTERM: only SIGKILL ends it. */
const neverAnswers = (name: string): ServerEntry => ({
  command: process.execPath,
  args: [testServerPath, '--name', name, '--never-answer'],
});
/** A test-server that answers its handshake only after `ms`. */
const slowToStart = (name: string, ms: number): ServerEntry => ({
  command: process.execPath,
  args: [testServerPath, '--name', name, '--handshake-delay-ms', String(ms)],
});

/**
 * A hung server beside a good one, with the gateway's waits on it longer than a test may take: a gateway
 * that held anything up for its hung server would time the test out, however loaded the machine is.
 */
const hungAndGood: GatewayConfigSpec = {
  servers: { hung: neverAnswers('h1'), good: testServer('g1') },
  preamble: '[gateway]\nstartup_wait_ms = 120000\n\n[timeouts]\nconnect_ms = 120000\n',
};

const commandLine = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
};

/** The processes below `pid` whose command line includes `marker`, once there is one. */
const backendPids = (pid: number, marker: string): Promise<number[]> =>
  until(
    () => {
      const found = noteDescendants(pid).filter((child) => commandLine(child).includes(marker));
      return found.length > 0 ? found : undefined;
    },
    10_000,
    `a process "${marker}" below ${pid}`,
  );

const exitOf = async (gateway: GatewayProcess, limitMs: number): Promise<{ code: number | null; ms: number }> => {
  const started = Date.now();
  const code = await Promise.race([
    gateway.exited,
    new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), limitMs + 3000)),
  ]);
  if (code === 'running') throw new Error(`still running ${limitMs + 3000} ms later:\n${gateway.stderr.text}`);
  return { code, ms: Date.now() - started };
};

interface HealthBody {
  readonly servers: readonly { readonly id: string; readonly state: string }[];
}

const statesOf = async (url: string): Promise<string[][]> => {
  const body = (await (await fetch(new URL('/health', url))).json()) as HealthBody;
  return body.servers.map((server) => [server.id, server.state]);
};

describe('a server that never answers its handshake', () => {
  // How fast the gateway starts and stops is bench/gateway.bench.ts's (cold ready); here, that nothing
  // waits for the hung server (its waits outlast the test's timeout).
  it('does not hold up HTTP: /health answers at once, and the other server’s tools are callable, while its hung server starts', async () => {
    const gateway = spawnGateway(await writeConfig(hungAndGood), ['--transport', 'http', '--port', '0', '--no-watch']);
    const url = (await gateway.stderr.waitFor(/listening on (http:\/\/\S+)/, 10_000))[1] as string;
    expect(await statesOf(url)).toContainEqual(['hung', 'starting']);

    const { client } = makeClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const result = await client.callTool({ name: 'good_echo', arguments: { text: 'here' } });
    expect(textOf(result)).toBe('here');
    expect(await statesOf(url)).toEqual([
      ['hung', 'starting'],
      ['good', 'ready'],
    ]);
  });

  it('does not keep a stdio gateway alive: it exits at stdin EOF while its hung server starts, and leaves no process', async () => {
    const gateway = spawnGateway(await writeConfig(hungAndGood), ['--no-watch']);
    const backends = [...(await backendPids(gateway.pid, '--never-answer')), ...(await backendPids(gateway.pid, '--name g1'))];
    gateway.child.stdin?.end();
    await exitOf(gateway, 10_000);
    expect(await waitDead(backends, 200)).toEqual([]);
  });

  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('is ended with `status` when %s interrupts it', async (signal) => {
    const status = spawnGateway(await writeConfig(hungAndGood), [], ['status']);
    const hung = await backendPids(status.pid, '--never-answer');
    // The working server too, once it is up: status is then waiting for the hung one alone.
    const good = await backendPids(status.pid, '--name g1');
    status.child.kill(signal);
    const { code } = await exitOf(status, 1000);
    expect(code).toBe(128 + constants.signals[signal]);
    expect(await waitDead([...hung, ...good], 1000)).toEqual([]);
  });
});

describe('servers that join late', () => {
  it('are waited for by the first tools/list within startup_wait_ms', async () => {
    const gateway = await startStdioGateway({ servers: { slow: slowToStart('s1', 1000), good: testServer('g2') } });
    const asked = Date.now();
    const names = (await gateway.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['slow_echo', 'good_echo']));
    // Answered once the slow one joined, not at the end of the 5 s wait.
    expect(Date.now() - asked).toBeLessThan(4500);
    expect((await gateway.client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^slow_/)]),
    );
  });

  it('are waited for by a resources/read of their URI within startup_wait_ms', async () => {
    const gateway = await startStdioGateway({ servers: { slow: slowToStart('s3', 1000) } });
    const result = await gateway.client.readResource({ uri: 'slow+test://s3/info' });
    expect(result.contents).toEqual([
      expect.objectContaining({ uri: 'slow+test://s3/info', text: expect.stringMatching(/^info for s3 /) }),
    ]);
  });

  it('are announced with list_changed when they join after the wait', async () => {
    const gateway = await startStdioGateway({ preamble: '[gateway]\nstartup_wait_ms = 100', servers: { slow: slowToStart('s2', 2000) } });
    let announced = 0;
    gateway.client.setNotificationHandler('notifications/tools/list_changed', () => {
      announced++;
    });
    const first = (await gateway.client.listTools()).tools.map((tool) => tool.name);
    expect(first.some((name) => name.startsWith('slow_'))).toBe(false);
    await until(() => (announced > 0 ? true : undefined), 10_000, 'tools/list_changed');
    expect((await gateway.client.listTools()).tools.map((tool) => tool.name)).toContain('slow_echo');
  });
});

describe('a port in use', () => {
  it('is reported in one line before any server starts, with exit code 2', async () => {
    const taken = createServer();
    listeners.push(taken);
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const marker = join(tmpdir(), `promptyard-started-${randomUUID()}`);
    markers.push(marker);
    const config = await writeConfig({
      servers: { marked: { command: 'sh', args: ['-c', `touch '${marker}'; exec '${process.execPath}' '${testServerPath}' --name m1`] } },
    });
    const gateway = spawnGateway(config, ['--transport', 'http', '--port', String(port), '--no-watch']);
    const { code } = await exitOf(gateway, 15_000);
    expect(code).toBe(2);
    expect(gateway.stderr.text).toContain(`port ${port} is in use — choose another with --port or [transport] port`);
    expect(gateway.stderr.text).not.toMatch(/EADDRINUSE/);
    expect(existsSync(marker)).toBe(false);
  });
});
