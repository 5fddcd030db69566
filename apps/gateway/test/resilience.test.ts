/**
 * The gateway when backends misbehave: commands that do not start, crashes (from inside and by an
 * outside SIGKILL), hung calls, restart backoff, and no process left behind however the gateway or
 * a backend ends. Black-box: the built gateway, real test-server backends, /health for state.
 */
import { writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import {
  cleanup,
  connectHttp,
  isAlive,
  leakyTestServer,
  listDescendants,
  noteDescendants,
  renderConfig,
  spawnGateway,
  startHttpGateway,
  startStdioGateway,
  testServer,
  textOf,
  until,
  waitDead,
  writeConfig,
} from './pass-harness.js';
import type { GatewayConfigSpec } from './pass-harness.js';

afterEach(cleanup);

const fastRestart = (initialMs: number): string => `[restart]\ninitial_ms = ${initialMs}\nmax_ms = 10000`;

const call = async (
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; isError: boolean; ms: number }> => {
  const started = Date.now();
  const result = await client.callTool({ name, arguments: args });
  return { text: textOf(result), isError: result.isError === true, ms: Date.now() - started };
};

const pidOf = async (client: Client, server: string): Promise<number> => {
  const { text } = await call(client, `${server}_whoami`);
  return Number(/pid=(\d+)/.exec(text)?.[1]);
};

describe('backends that do not start', () => {
  it('reports why in /health, backs off between restarts, gives up after max_restarts, and serves the other servers', async () => {
    const started = Date.now();
    const gateway = await startHttpGateway({
      // initial_ms 100, doubling: three restarts wait 100 + 200 + 400 ms, then the gateway gives up.
      preamble: `${fastRestart(100)}\nmax_restarts = 3`,
      servers: {
        good: testServer('g1'),
        missing: { command: '/nonexistent/promptyard-no-such-command' },
        quits: { command: 'sh', args: ['-c', 'echo boom >&2; exit 1'] },
      },
    });
    const { client } = await connectHttp(gateway.url);
    expect((await call(client, 'good_echo', { text: 'fine' })).text).toBe('fine');
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('good_echo');
    expect(names.some((name) => name.startsWith('missing_') || name.startsWith('quits_'))).toBe(false);

    const failed = async (id: string) =>
      until(
        async () => {
          const entry = await gateway.server(id);
          return entry.state === 'failed' ? entry : undefined;
        },
        10_000,
        `${id} to be given up`,
      );
    const [missing, quits] = await Promise.all([failed('missing'), failed('quits')]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(missing).toMatchObject({
      state: 'failed',
      restarts: 3,
      lastError: expect.stringMatching(/promptyard-no-such-command.*not found/),
    });
    expect(quits).toMatchObject({ state: 'failed', restarts: 3, lastError: expect.stringMatching(/boom/) });
    expect((await gateway.server('good')).state).toBe('ready');
    expect((await call(client, 'good_echo', { text: 'still fine' })).text).toBe('still fine');
    const down = await call(client, 'missing_echo', { text: 'x' }).catch((error: unknown) => ({ text: String(error), isError: true }));
    expect(down.text).toMatch(/Server "missing" failed and will not be restarted/);
  });
});

describe('a backend that crashes', () => {
  it('fails the call at once, restarts with a new process, and announces the tools leaving and returning', async () => {
    const gateway = await startHttpGateway({ preamble: fastRestart(600), servers: { crashy: testServer('c1'), other: testServer('o1') } });
    const { client } = await connectHttp(gateway.url);
    const changes: unknown[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changes.push(Date.now());
    });
    const firstPid = await pidOf(client, 'crashy');
    expect((await gateway.server('crashy')).pid).toBe(firstPid);

    const crashed = await call(client, 'crashy_crash');
    expect(crashed.isError).toBe(true);
    expect(crashed.text).toMatch(/crashy/);
    expect(crashed.ms).toBeLessThan(2000);
    expect((await gateway.server('crashy')).state).toBe('restarting');
    expect((await call(client, 'other_echo', { text: 'unaffected' })).text).toBe('unaffected');

    const back = await until(async () => {
      const entry = await gateway.server('crashy');
      return entry.state === 'ready' ? entry : undefined;
    });
    expect(back.restarts).toBe(1);
    expect(back.lastError).toBeDefined();
    await until(() => (changes.length >= 2 ? true : undefined), 5000, 'tools/list_changed for the removal and the re-sync');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('crashy_whoami');
    const secondPid = await pidOf(client, 'crashy');
    expect(secondPid).not.toBe(firstPid);
    expect(back.pid).toBe(secondPid);
    expect(isAlive(firstPid)).toBe(false);

    // Killed from outside while a call is in flight.
    const inFlight = call(client, 'crashy_slow', { ms: 30_000 });
    await until(async () => ((await gateway.server('crashy')).inFlight === 1 ? true : undefined), 5000, 'the call to be in flight');
    const killedAt = Date.now();
    process.kill(secondPid, 'SIGKILL');
    const killed = await inFlight;
    expect(killed.isError).toBe(true);
    expect(killed.text).toMatch(/crashy/);
    expect(Date.now() - killedAt).toBeLessThan(2000);
    const again = await until(async () => {
      const entry = await gateway.server('crashy');
      return entry.state === 'ready' ? entry : undefined;
    });
    expect(again.restarts).toBe(2);
    const thirdPid = await pidOf(client, 'crashy');
    expect([firstPid, secondPid]).not.toContain(thirdPid);
  });
});

describe('a backend that hangs', () => {
  it('fails a hung call after tool_timeout, keeps serving, and lets progress extend a long call', async () => {
    const { client } = await startStdioGateway({ servers: { hung: testServer('h1', ['tool_timeout = 500']) } });
    const hung = call(client, 'hung_hang');
    // The backend still answers other calls while one hangs.
    expect((await call(client, 'hung_echo', { text: 'meanwhile' })).text).toBe('meanwhile');
    const result = await hung;
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/hung/);
    expect(result.text).toMatch(/500 ms/);
    expect(result.ms).toBeGreaterThanOrEqual(450);
    expect(result.ms).toBeLessThan(2000);
    expect((await call(client, 'hung_echo', { text: 'after' })).text).toBe('after');
    // The gateway gave up on the call, so the backend is told to stop working on it.
    await until(
      async () => ((await call(client, 'hung_was_cancelled')).text === '1' ? true : undefined),
      3000,
      'the backend to see the timed-out call cancelled',
    );

    // Four steps of 300 ms: each under the timeout, together well over it.
    const steps: number[] = [];
    const long = await client.callTool(
      { name: 'hung_progress', arguments: { steps: 4, delayMs: 300 } },
      { onprogress: (progress) => steps.push(progress.progress) },
    );
    expect(long.isError).not.toBe(true);
    expect(textOf(long)).toBe('done 4');
    expect(steps).toEqual([1, 2, 3, 4]);
  });
});

describe('no process left behind', () => {
  const leaky: GatewayConfigSpec = { servers: { leaky: leakyTestServer('l1') } };

  /** The backend and its `sleep` grandchild, below a gateway. */
  const backendTree = async (gatewayPid: number): Promise<number[]> =>
    until(
      () => {
        const found = noteDescendants(gatewayPid);
        return found.length >= 2 ? found : undefined;
      },
      10_000,
      'the backend and its grandchild',
    );

  it('on SIGTERM to the gateway', async () => {
    const gateway = await startHttpGateway(leaky);
    const tree = await backendTree(gateway.pid);
    gateway.child.kill('SIGTERM');
    await gateway.exited;
    expect(await waitDead(tree)).toEqual([]);
  });

  it('when the stdio gateway’s stdin closes', async () => {
    const gateway = spawnGateway(await writeConfig(leaky), ['--no-watch']);
    await gateway.stderr.waitFor(/1 of 1 servers ready/);
    const tree = await backendTree(gateway.pid);
    gateway.child.stdin?.end();
    await gateway.exited;
    expect(await waitDead(tree)).toEqual([]);
  });

  it('when a config reload removes the server', async () => {
    const spec: GatewayConfigSpec = { servers: { leaky: leakyTestServer('l2'), keep: testServer('k1') } };
    const gateway = await startHttpGateway(spec, { watch: true });
    const leakyPid = (await gateway.server('leaky')).pid as number;
    const tree = [leakyPid, ...listDescendants(leakyPid)];
    expect(tree.length).toBeGreaterThanOrEqual(2);
    await writeFile(gateway.config, renderConfig({ servers: { keep: testServer('k1') } }));
    await gateway.stderr.waitFor(/config reloaded/);
    expect(await waitDead(tree)).toEqual([]);
    const { servers } = await gateway.health();
    expect(servers.map((server) => [server.id, server.state])).toEqual([['keep', 'ready']]);
  });

  it('when the gateway is SIGKILLed, its stdio backends exit on stdin EOF', async () => {
    const gateway = spawnGateway(await writeConfig({ servers: { one: testServer('s1'), two: testServer('s2') } }), ['--no-watch']);
    await gateway.stderr.waitFor(/2 of 2 servers ready/);
    const backends = noteDescendants(gateway.pid);
    expect(backends).toHaveLength(2);
    gateway.child.kill('SIGKILL');
    await gateway.exited;
    expect(await waitDead(backends, 5000)).toEqual([]);
  });
});
