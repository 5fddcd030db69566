/**
 * The operator console over a cluster: two replicas of the built promptyard-gateway sharing one Redis
 * (`[cluster]`, given as PROMPTYARD_CLUSTER_REDIS_URL), each with `[console]` on the static token and
 * its own stdio server. Signed in on replica A over plain HTTP, the Servers page shows replica B's
 * server (its own process) and the Activity page a call made through B, live over the event stream;
 * B stopped gracefully leaves A's pages at once, B killed leaves them once it has been silent for
 * three heartbeats, said on the page. In Chromium (when installed), both pages pass axe-core; the
 * Servers page's screenshot goes to $PROMPTYARD_CONSOLE_SHOTS when it is set.
 */
import { join } from 'node:path';
import axe from 'axe-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumArgs,
  chromiumPath,
  consolePages,
  seriousViolations,
  signIn as signInPage,
  skipWithoutBrowser,
} from '../../apps/gateway/test/console-browser.js';
import { sessionCookieName, signInOverHttp } from '../../apps/gateway/test/console-http.js';
import { connectHttp, gatewayToml, stdioBackendCommand, textOf } from '../../apps/gateway/test/harness.js';
import { startCluster } from '../../test-support/cluster.js';
import type { Cluster } from '../../test-support/cluster.js';
import { eventually } from './clients.js';

const token = 'cluster-console-token';

interface Replica {
  readonly node: string;
  readonly url: string;
  readonly html: string;
}

/** The replicas' sections of a Servers page: node id, URL and their part of the page. */
const replicasOf = (page: string): Replica[] =>
  page
    .split('<section ')
    .slice(1)
    .map((part) => ({
      node: /data-replica="([^"]+)"/.exec(part)?.[1] ?? '',
      url: /data-url="([^"]*)"/.exec(part)?.[1] ?? '',
      html: part.slice(0, part.indexOf('</section>')),
    }));

const pidOf = (section: string, server: string): string | undefined =>
  new RegExp(`data-server="${server}"[^>]*data-pid="(\\d+)"`).exec(section)?.[1];

/** Reads `/console/events?stream=…` until an event's data satisfies `match`, or fails at the deadline. */
const waitForEvent = async (url: string, cookie: string, match: (data: string) => boolean, timeoutMs: number): Promise<string> => {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  let text = '';
  try {
    const response = await fetch(url, { headers: { cookie }, signal: abort.signal });
    const decoder = new TextDecoder();
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      for (const event of text.split('\n\n')) {
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        if (match(data)) return data;
      }
    }
    throw new Error('the event stream ended');
  } catch (error) {
    if (abort.signal.aborted) throw new Error(`no matching event within ${timeoutMs} ms; heard:\n${text.slice(-2000)}`);
    throw error;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
};

describe('promptyard-gateway console: 2 replicas show each other through Redis', () => {
  let cluster: Cluster;
  let a: string;
  let cookie: string;

  const page = async (path: string): Promise<string> => {
    const response = await fetch(`${a}/console/${path}`, { headers: { cookie }, redirect: 'manual' });
    expect(response.status, `GET /console/${path}`).toBe(200);
    return response.text();
  };
  const portOf = (index: number): string => new URL(cluster.nodes[index]?.origin as string).port;
  const replicaB = (replicas: readonly Replica[]): Replica | undefined =>
    replicas.slice(1).find((replica) => replica.url.includes(`:${portOf(1)}/`));

  beforeAll(async () => {
    const config = gatewayToml(
      { alpha: { command: stdioBackendCommand({ name: 'alpha' }) } },
      {},
      `[transport]\nauth_token = "${token}"\n\n[console]\nenabled = true`,
    );
    cluster = await startCluster({ app: 'gateway', replicas: 2, config });
    a = cluster.nodes[0]?.origin as string;
    cookie = `${sessionCookieName}=${await signInOverHttp(a, token)}`;
  }, 120_000);

  afterAll(async () => {
    await cluster?.close();
  });

  it("shows replica B's server on replica A's Servers page, without restart buttons, and B's calls on A's Activity page, live", async () => {
    const replicas = await eventually(
      async () => replicasOf(await page('servers')),
      (found) => replicaB(found)?.html.includes('data-server="alpha"') === true,
      20_000,
      "replica B's table on replica A's Servers page",
    );
    const [own, b] = [replicas[0] as Replica, replicaB(replicas) as Replica];
    expect(own.html).toContain('This replica');
    expect(own.url).toContain(`:${portOf(0)}/`);
    expect(own.html).toContain('aria-label="Restart alpha"');
    expect(b.html).not.toContain('aria-label="Restart');
    expect(b.html).not.toContain('Actions');
    expect(pidOf(b.html, 'alpha'), "B's own alpha process").not.toBe(pidOf(own.html, 'alpha'));

    const heard = waitForEvent(`${a}/console/events?stream=activity`, cookie, (data) => data.includes('data-name="alpha_echo"'), 20_000);
    const client = await connectHttp(cluster.nodeUrl(1), { token });
    try {
      expect(textOf(await client.callTool({ name: 'alpha_echo', arguments: { text: 'through B' } }))).toBe('through B');
      // Its session, held by B, on A's Sessions page under B (a replica reports its clients at each heartbeat).
      await eventually(
        async () => replicasOf(await page('sessions')),
        (found) => replicaB(found)?.html.includes('data-client="gateway-e2e"') === true,
        20_000,
        "B's client on replica A's Sessions page",
      );
    } finally {
      await client.close();
    }
    const table = await heard;
    expect(table).toContain('<th scope="col">Replica</th>');
    const row = /<tr[^>]*data-name="alpha_echo"[^>]*>(.*?)<\/tr>/.exec(table)?.[1] ?? '';
    expect(row, 'the call is named with replica B').toContain(`<td>${b.node.slice(0, 8)}</td>`);
    expect(await page('activity')).toContain(`<td>${b.node.slice(0, 8)}</td>`);
  }, 60_000);

  it.skipIf(skipWithoutBrowser('the cluster console in a browser'))(
    'shows the Servers, Activity and Sessions pages accessibly in a browser, within the Content-Security-Policy',
    async () => {
      const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
      const { newPage, cspViolations, close } = consolePages(() => browser, 900);
      const shots = process.env['PROMPTYARD_CONSOLE_SHOTS'];
      try {
        const page = await newPage();
        await signInPage(page, a, token);
        await page.locator('section[data-url*="127.0.0.1"] + section tr[data-server="alpha"]').waitFor();
        expect(await seriousViolations(page, axe.source)).toEqual([]);
        if (shots !== undefined) await page.screenshot({ path: join(shots, 'console-replicas.png'), fullPage: true });
        await page.goto(`${a}/console/activity`);
        await page.locator('tr[data-name="alpha_echo"]').first().waitFor();
        expect(await seriousViolations(page, axe.source)).toEqual([]);
        await page.goto(`${a}/console/sessions`);
        await page.locator('section[data-replica] table').first().waitFor();
        expect(await seriousViolations(page, axe.source)).toEqual([]);
        expect(cspViolations).toEqual([]);
      } finally {
        await close();
        await browser.close();
      }
    },
    60_000,
  );

  it('drops replica B at once when it stops, and once silent for three heartbeats when it is killed, saying so', async () => {
    process.kill(cluster.nodes[1]?.pid as number, 'SIGTERM');
    await eventually(
      async () => replicasOf(await page('servers')),
      (found) => replicaB(found) === undefined,
      10_000,
      'replica B gone from A after its graceful stop',
    );
    expect(await page('servers')).not.toContain('stopped reporting');

    await cluster.restart(1);
    await eventually(
      async () => replicaB(replicasOf(await page('servers'))),
      (found) => found !== undefined,
      20_000,
      'replica B back',
    );
    await cluster.kill(1);
    const after = await eventually(
      () => page('servers'),
      (html) => replicaB(replicasOf(html)) === undefined,
      30_000,
      'replica B dropped from A once silent',
    );
    expect(after).toMatch(
      new RegExp(`Replica \\S+ · http://127\\.0\\.0\\.1:${portOf(1)}/mcp stopped reporting at \\d\\d:\\d\\d:\\d\\d UTC`),
    );
  }, 90_000);
});
