/**
 * The scenarios both cluster tests run (promptyard-server and promptyard-gateway behind nginx):
 * the conformance suite through the balancer, a replica killed under load, Redis stopped, Prometheus
 * scraping every replica. Each asserts with `expect`; waits are bounded polls or events.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { Cluster } from '../../test-support/cluster.js';
import { conformanceVersions, failedChecks, regressions } from '../../test-support/conformance.js';
import type { ConformanceOutcomes, ConformanceSuite } from '../../test-support/conformance.js';
import { promtoolProblems } from '../../test-support/metrics.js';
import { startPrometheus } from '../../test-support/prometheus.js';
import { connectModern, connectV1, eventually, gaugeOnEach } from './clients.js';
import type { V1Session } from './clients.js';

/** What nginx saw: its 5xx answers (access log) and upstream errors (error log), so that a failure says why. */
const nginxSaw = async (cluster: Cluster): Promise<string> =>
  [
    ...(await cluster.nginx.accessLog()).split('\n').filter((line) => /^\S+ \S+ 5\d\d /.test(line)),
    ...cluster.nginx.log.text.split('\n').filter((line) => /\[(?:error|warn|crit|alert)\]/.test(line)),
  ].join('\n');

/**
 * The suite at both revisions against replica 0 directly and through nginx: every scenario that
 * passes against the one node passes through the balancer. `mustPass` names scenarios the node is
 * expected to pass (so that the comparison is not vacuous).
 */
export const conformanceThroughNginx = async (
  cluster: Cluster,
  suite: ConformanceSuite,
  mustPass: Readonly<Record<(typeof conformanceVersions)[number], readonly string[]>>,
): Promise<void> => {
  const output = await mkdtemp(join(tmpdir(), 'promptyard-cluster-conformance-'));
  try {
    const runs = conformanceVersions.map(async (version) => {
      const [node, balanced] = await Promise.all([
        suite.run(cluster.nodeUrl(0), version, join(output, `node-${version}`)),
        suite.run(cluster.url, version, join(output, `nginx-${version}`)),
      ]);
      return { version, node, balanced };
    });
    const failures: string[] = [];
    const said: string[] = [];
    for (const { version, node, balanced } of await Promise.all(runs)) {
      const passed = (outcomes: ConformanceOutcomes): string[] => [...outcomes].filter(([, ok]) => ok).map(([scenario]) => scenario);
      expect(passed(node), `scenarios one replica passes at ${version}`).toEqual(expect.arrayContaining([...mustPass[version]]));
      const lost = regressions(node, balanced);
      if (lost.length > 0) failures.push(`${version}: ${lost.join(', ')}`);
      for (const scenario of lost) said.push(...(await failedChecks(join(output, `nginx-${version}`), scenario)));
    }
    expect(
      failures,
      failures.length === 0
        ? ''
        : `scenarios that pass against one replica but fail through nginx; their failed checks:\n${said.join('\n')}\nnginx:\n${await nginxSaw(cluster)}`,
    ).toEqual([]);
  } finally {
    await rm(output, { recursive: true, force: true });
  }
};

/** One client of the load: a 2025-11-25 session (SDK v1) or a 2026-07-28 client (SDK v2). */
export interface LoadClient {
  /** One call of its loop. */
  call(index: number): Promise<unknown>;
  /** list_changed notifications heard on its GET stream (2025 sessions). */
  readonly heard?: () => number;
  /** Whether it still uses the session it initialized (2025 sessions). */
  readonly sameSession?: () => boolean;
  close(): Promise<void>;
}

/** A 2025-11-25 session through nginx whose loop calls `call`. */
export const v1Load = (url: string, call: (session: V1Session, index: number) => Promise<unknown>) => async (): Promise<LoadClient> => {
  const session = await connectV1(url);
  return {
    call: (index) => call(session, index),
    heard: session.heard,
    sameSession: () => session.transport.sessionId === session.sessionId,
    close: session.close,
  };
};

/** A 2026-07-28 client through nginx whose loop calls `call`. */
export const modernLoad = (url: string, call: (client: Client, index: number) => Promise<unknown>) => async (): Promise<LoadClient> => {
  const client = await connectModern(url);
  return { call: (index) => call(client, index), close: () => client.close() };
};

export interface KillOptions {
  readonly clients: number;
  readonly callsPerClient: number;
  /** The replica to SIGKILL once a third of the calls are done. */
  readonly victim: number;
  readonly connect: () => Promise<LoadClient>;
  /** A change every replica announces with list_changed (a prompt file written); when given, every client must hear each one made after the kill. */
  readonly edit?: () => Promise<void>;
}

interface CallRecord {
  readonly start: number;
  readonly end: number;
  readonly error?: string;
}

/** How long a call in flight on a killed replica may take to fail: nginx answers 502 as soon as the connection drops. */
const failFastMs = 5000;

/**
 * `clients` clients through nginx, each making `callsPerClient` calls; a replica is SIGKILLed a third
 * of the way in. Calls in flight on it fail fast; every call started after it died succeeds, 2025
 * sessions go on without initializing again; their GET streams resume elsewhere (Last-Event-ID) and
 * hear every change made after the kill. The replica is then restarted on its port.
 */
/** Makes a change and waits until every client has heard a notification since. */
const changeHeardByAll = async (clients: readonly { heard?: () => number }[], edit: () => Promise<void>, what: string): Promise<void> => {
  const before = clients.map((client) => client.heard?.() ?? 0);
  await edit();
  await eventually(
    async () => clients.map((client, index) => (client.heard?.() ?? 0) - (before[index] as number)),
    (counts) => counts.every((count) => count >= 1),
    15_000,
    what,
  );
};

export const killReplicaUnderLoad = async (cluster: Cluster, options: KillOptions): Promise<void> => {
  const clients = await Promise.all(Array.from({ length: options.clients }, () => options.connect()));
  try {
    if (options.edit !== undefined) {
      const open = (): Promise<number> =>
        gaugeOnEach(cluster, 'promptyard_http_open_streams').then((values) => values.reduce((sum, value) => sum + value, 0));
      await eventually(open, (count) => count >= options.clients, 10_000, 'every client has its GET stream open');
      // A change before the kill: every GET stream then holds an event id to resume from.
      await changeHeardByAll(clients, options.edit, 'every client hears the change made before the kill');
    }
    const records: CallRecord[][] = clients.map(() => []);
    let done = 0;
    const third = Math.floor((options.clients * options.callsPerClient) / 3);
    let reachedThird!: () => void;
    const thirdDone = new Promise<void>((resolve) => (reachedThird = resolve));
    const loops = clients.map(async (client, which) => {
      for (let index = 0; index < options.callsPerClient; index += 1) {
        const start = performance.now();
        try {
          await client.call(index);
          records[which]?.push({ start, end: performance.now() });
        } catch (error) {
          records[which]?.push({ start, end: performance.now(), error: (error as Error).message });
        }
        done += 1;
        if (done === third) reachedThird();
      }
    });
    await thirdDone;
    const killStarted = performance.now();
    await cluster.kill(options.victim);
    const killed = performance.now();
    const killedAtEpoch = Date.now() / 1000;

    for (let edit = 1; options.edit !== undefined && edit <= 2; edit += 1) {
      await changeHeardByAll(
        clients,
        options.edit,
        `every client hears change ${edit} made after the kill (notifications heard since, per client)`,
      );
    }
    await Promise.all(loops);

    const all = records.flat();
    const failed = all.filter((record) => record.error !== undefined);
    expect(all).toHaveLength(options.clients * options.callsPerClient);
    // Only calls that were in flight when the replica died may fail, and they fail fast.
    const late = failed.filter((record) => record.start >= killed).map((record) => record.error);
    expect(
      late,
      late.length === 0
        ? ''
        : `calls started after replica ${options.victim} (port ${cluster.nodes[options.victim]?.port}) died that failed; nginx:\n${await nginxSaw(cluster)}`,
    ).toEqual([]);
    expect(failed.filter((record) => record.end - record.start > failFastMs).length, `failed calls that took over ${failFastMs} ms`).toBe(
      0,
    );
    expect(failed.length).toBeLessThanOrEqual(options.clients);
    expect(failed.every((record) => record.end >= killStarted)).toBe(true);
    // The same sessions went on: no client initialized again.
    expect(clients.map((client) => client.sameSession?.() ?? true)).toEqual(clients.map(() => true));
    if (options.edit !== undefined) {
      // The GET streams that were on the dead replica resumed elsewhere with Last-Event-ID (nginx logs a stream when it ends).
      await Promise.allSettled(clients.map((client) => client.close()));
      const resumed = (log: string): string[] =>
        log.split('\n').filter((line) => {
          const [at, method, status] = line.split(' ');
          return (
            Number(at) >= killedAtEpoch &&
            method === 'GET' &&
            status === '200' &&
            !line.endsWith('last-event-id=""') &&
            !line.endsWith('last-event-id="-"')
          );
        });
      await eventually(
        () => cluster.nginx.accessLog(),
        (log) => resumed(log).length > 0,
        10_000,
        'a GET stream resumed with Last-Event-ID after the kill (nginx access log)',
      );
    }
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
    if (cluster.nodes[options.victim]?.alive !== true) await cluster.restart(options.victim);
  }
  const back = await connectModern(cluster.nodeUrl(options.victim));
  await back.listTools();
  await back.close();
};

/**
 * Redis stopped for 5 s: every replica (and nginx) keeps answering `probe`, /health says degraded;
 * Redis back: /health ok, `promptyard_cluster_redis_up` 1 on every replica.
 */
export const redisOutage = async (cluster: Cluster, probe: (client: Client) => Promise<unknown>): Promise<void> => {
  const clients = await Promise.all(
    [cluster.url, ...cluster.nodes.map((node) => cluster.nodeUrl(node.index))].map((url) => connectModern(url)),
  );
  let redisDown = false;
  try {
    await cluster.stopRedis();
    redisDown = true;
    const stopped = Date.now();
    const errors: string[] = [];
    let answered = 0;
    while (Date.now() - stopped < 5000) {
      const results = await Promise.allSettled(clients.map((client) => probe(client)));
      for (const result of results) {
        if (result.status === 'fulfilled') answered += 1;
        else errors.push((result.reason as Error).message);
      }
    }
    expect(errors, 'requests that failed while Redis was down').toEqual([]);
    expect(answered).toBeGreaterThan(0);
    const healths = () => Promise.all(cluster.nodes.map((node) => cluster.health(node.index)));
    await expect
      .soft(
        eventually(
          healths,
          (bodies) => bodies.every((body) => body.status === 'degraded'),
          5000,
          '/health of every replica says "degraded" while Redis is down',
        ),
      )
      .resolves.toBeDefined();
    await cluster.startRedis();
    redisDown = false;
    const recovered = await eventually(
      healths,
      (bodies) => bodies.every((body) => body.status === 'ok'),
      20_000,
      '/health of every replica says "ok" after Redis is back',
    );
    expect(
      recovered.map((body) => body.cluster !== undefined),
      '/health has a "cluster" field on every replica',
    ).toEqual(cluster.nodes.map(() => true));
    await eventually(
      () => gaugeOnEach(cluster, 'promptyard_cluster_redis_up'),
      (values) => values.every((value) => value === 1),
      20_000,
      'promptyard_cluster_redis_up is 1 on every replica',
    );
    // Serving through the balancer goes on.
    for (const client of clients) await probe(client);
  } finally {
    if (redisDown) await cluster.startRedis();
    await Promise.allSettled(clients.map((client) => client.close()));
  }
};

const dashboardPath = fileURLToPath(new URL('../../deploy/grafana/promptyard.json', import.meta.url));
const metricsSourceDir = fileURLToPath(new URL('../../packages/telemetry/src/', import.meta.url));

/** The metrics library's source in packages/telemetry: every file that may register an instrument. */
const metricsSources = async (): Promise<string> => {
  const files = (await readdir(metricsSourceDir)).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
  return (await Promise.all(files.map((file) => readFile(join(metricsSourceDir, file), 'utf8')))).join('\n');
};

/** Every query of deploy/grafana/promptyard.json, its dashboard variables given values Prometheus takes. */
const dashboardQueries = async (): Promise<{ readonly title: string; readonly expr: string }[]> => {
  const dashboard = JSON.parse(await readFile(dashboardPath, 'utf8')) as { panels: { title: string; targets?: { expr: string }[] }[] };
  return dashboard.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({
      title: panel.title,
      expr: target.expr
        .replaceAll('$__rate_interval', '1m')
        .replaceAll('$__range', '5m')
        .replaceAll('$job', '.*')
        .replaceAll('$instance', '.*'),
    })),
  );
};

/**
 * A real Prometheus scrapes every replica: targets up, request counters rising on each; `promtool
 * check metrics` clean on each; every query of the Grafana dashboard is valid PromQL over metrics the
 * binaries define.
 */
export const prometheusScrape = async (cluster: Cluster, load: () => Promise<void>): Promise<void> => {
  const prometheus = await startPrometheus(cluster.nodes.map((node) => `127.0.0.1:${node.port}`));
  try {
    const up = await eventually(
      () => prometheus.query('up{job="promptyard"}'),
      (samples) => samples.length === cluster.nodes.length && samples.every((sample) => sample.value === 1),
      20_000,
      'every replica is an up target',
    );
    expect(up).toHaveLength(cluster.nodes.length);
    const perInstance = 'sum by (instance) (promptyard_request_duration_seconds_count)';
    // A request series exists once a replica has answered one request.
    await load();
    const before = await eventually(
      () => prometheus.query(perInstance),
      (samples) => samples.length === cluster.nodes.length,
      20_000,
      'request counters scraped from every replica',
    );
    await load();
    await eventually(
      () => prometheus.query(perInstance),
      (samples) =>
        samples.length === cluster.nodes.length &&
        samples.every((sample) => sample.value > (before.find((old) => old.labels.instance === sample.labels.instance)?.value ?? Infinity)),
      20_000,
      'request counters rising on every replica',
    );
    for (const node of cluster.nodes)
      expect(promtoolProblems(await cluster.metrics(node.index)), `promtool check metrics on replica ${node.index}`).toBe('');

    const defined = await metricsSources();
    const unknown: string[] = [];
    for (const { title, expr } of await dashboardQueries()) {
      await expect(prometheus.query(expr), `dashboard panel "${title}"`).resolves.toBeDefined();
      for (const name of expr.match(/\bpromptyard_\w+/g) ?? []) {
        if (!defined.includes(`'${name.replace(/_(bucket|count|sum)$/, '')}'`)) unknown.push(`${title}: ${name}`);
      }
    }
    expect(unknown, 'dashboard metrics that packages/telemetry does not define').toEqual([]);
  } finally {
    await prometheus.stop();
  }
};
