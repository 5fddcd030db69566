/**
 * Markup in every field the console shows — server names and errors, tool names and descriptions,
 * identities, client names and versions, replica ids and URLs, the rules calls wait under, audit
 * entries, messages — comes out escaped on every page and in every live part the event stream sends.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@promptyard/core';
import type { ConnectedClient } from '@promptyard/mcp';
import type { PendingApproval } from '@promptyard/router';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsole } from './console.js';
import { createActivityFeed } from './sources/activity-feed.js';
import type { CatalogSource } from './sources/catalog-source.js';
import type { ChangeDesk } from './sources/change-desk.js';
import { createClusterView, encodeSnapshot } from './sources/cluster-view.js';
import type { ClusterView } from './sources/cluster-view.js';
import { renderSigningOut } from './pages/html.js';
import { manualClock, memoryStore } from './test-cluster.js';
import { serverStatus } from './test-status.js';

/** Markup, tagged with the field it stands in, so a field that is not shown escaped fails by name. */
const evil = (field: string): string => `<img src=x onerror=alert(1)>"'&${field}`;
const escapedText = (field: string): string => `&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;${field}`;

const logger = createLogger({ level: 'error', write: () => {} });
const now = Date.parse('2026-11-27T12:00:00Z');

const client = (field: string): ConnectedClient => ({
  transport: 'session',
  endpoint: evil(`${field}-endpoint`),
  clientName: evil(`${field}-client`),
  clientVersion: evil(`${field}-version`),
  protocolVersion: evil(`${field}-protocol`),
  subject: evil(`${field}-subject`),
  sessionPrefix: evil(`${field}-session`),
  openedAt: now,
  lastActiveAt: now,
  requests: 1,
});

const server = (field: string) =>
  serverStatus(evil(`${field}-server`), {
    server: evil(`${field}-server-info`),
    lastError: evil(`${field}-error`),
    protocolVersion: evil(`${field}-revision`),
  });

const catalog: CatalogSource = {
  profiles: () => ['default', evil('profile')],
  items: () => [
    {
      kind: 'tool',
      name: evil('tool'),
      server: evil('catalog-server'),
      original: evil('original'),
      title: evil('title'),
      description: evil('description'),
      definition: { type: 'object', description: evil('schema') },
      overrides: [evil('override')],
      pin: 'changed',
    },
  ],
  search: () => new Set([evil('tool')]),
};

const changes: ChangeDesk = {
  pending: () => [
    {
      server: evil('change-server'),
      kind: 'tool',
      name: evil('change-name'),
      change: 'changed',
      fields: [evil('field')],
      digest: evil('digest'),
      held: true,
      diff: `=== header\n--- approved\n+++ now\n@@ description @@\n-${evil('old')}\n+${evil('new')}\n`,
      rejected: { subject: evil('rejected-by'), at: new Date(now) },
    },
  ],
  approve: async () => 'done',
  reject: async () => 'done',
};

const waiting: PendingApproval = {
  id: 1,
  identity: evil('waiting-identity'),
  profile: evil('waiting-profile'),
  server: evil('waiting-server'),
  tool: evil('waiting-tool'),
  rule: evil('rule'),
  since: new Date(now),
};

/** This replica's view of a cluster in which one other replica reports, and one stopped reporting; both named with markup. */
const cluster = async (): Promise<ClusterView> => {
  const store = memoryStore();
  const clock = manualClock();
  const view = (nodeId: string, field: string) =>
    createClusterView({
      map: store.mapOf(nodeId),
      nodeId,
      url: () => evil(`${field}-url`),
      servers: () => [server(field)],
      activity: () => [
        {
          seq: 1,
          time: new Date(now),
          profile: evil(`${field}-profile`),
          kind: 'tool',
          name: evil(`${field}-call`),
          decision: 'allowed',
          durationMs: 1,
        },
      ],
      clients: () => [client(field)],
      changes: () => () => {},
      logger,
      clock,
    });
  const local = view(evil('this-node'), 'local');
  view(evil('other-node'), 'other');
  const gone = evil('gone-node');
  await store.mapOf(gone).set(new Map([[gone, encodeSnapshot(gone, evil('gone-url'), clock.now(), [server('gone')], [])]]));
  await clock.advance(0);
  expect(local.replicas().map((replica) => replica.node)).toContain(gone);
  // Silent for three heartbeats: the page says it stopped reporting.
  await clock.advance(15_000);
  expect(local.gone().map((replica) => replica.node)).toEqual([gone]);
  return local;
};

let http: Server | undefined;
afterEach(
  () =>
    new Promise<void>((resolve) => {
      if (http === undefined) return resolve();
      http.close(() => resolve());
      // The event streams this test opened and aborted: not left for the keep-alive timeout.
      http.closeAllConnections();
    }),
);

const startConsole = async (): Promise<string> => {
  const activity = createActivityFeed(undefined);
  activity.trail.record({
    identity: evil('identity'),
    client: evil('oauth-client'),
    profile: evil('profile'),
    server: evil('audit-server'),
    kind: 'tool',
    name: evil('audit-name'),
    decision: 'denied',
    reason: evil('reason'),
    durationMs: 2,
  });
  const view = await cluster();
  const mount = createConsole({
    model: { servers: () => [server('local')], restart: async () => {}, subscribe: () => () => {} },
    signIn: async (token) =>
      token === 'admin-token'
        ? { ok: true, subject: evil('signed-in-subject'), role: 'admin' }
        : { ok: false, message: evil('sign-in-error') },
    catalog,
    changes,
    activity,
    cluster: view,
    url: () => evil('local-url'),
    approvals: { list: () => [waiting], subscribe: () => () => {} },
    clients: { clients: () => [client('endpoint')], onClientsChange: () => () => {} },
    sessionMs: 60_000,
    secure: false,
    logger,
  });
  http = createServer((req, res) => void mount.handle(req, res));
  await new Promise<void>((resolve) => http?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
};

const formHeaders = (cookie: string) => ({ 'content-type': 'application/x-www-form-urlencoded', cookie });

/** The sign-in page after a refused token (its error), and a session cookie after an accepted one. */
const signIn = async (origin: string): Promise<{ refused: string; cookie: string }> => {
  const login = async (token: string) => {
    const page = await fetch(`${origin}/console/login`);
    const loginCookie = (page.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] as string;
    const body = new URLSearchParams({ _csrf: csrf, token }).toString();
    return fetch(`${origin}/console/login`, { method: 'POST', headers: formHeaders(loginCookie), body, redirect: 'manual' });
  };
  const refused = await (await login('wrong')).text();
  const cookie = ((await login('admin-token')).headers.getSetCookie()[0] ?? '').split(';')[0] as string;
  return { refused, cookie };
};

/** The first event of each name a stream sends, until every one named has come. */
const firstEvents = async (origin: string, cookie: string, query: string, names: readonly string[]): Promise<Map<string, string>> => {
  const controller = new AbortController();
  const response = await fetch(`${origin}/console/events${query}`, { headers: { cookie }, signal: controller.signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events = new Map<string, string>();
  let text = '';
  while (!names.every((name) => events.has(name))) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    for (const [, name, data] of text.matchAll(/event: (\w+)\n((?:data: .*\n)+)\n/g))
      if (!events.has(name as string)) events.set(name as string, (data as string).replace(/^data: /gm, ''));
  }
  controller.abort();
  return events;
};

/** No raw markup from the input, and each field named shown escaped. */
const expectEscaped = (what: string, text: string, fields: readonly string[]): void => {
  expect(text, what).not.toContain('<img');
  expect(text, what).not.toContain(`"'&`);
  for (const field of fields) expect(text, `${what}: ${field}`).toContain(escapedText(field));
};

const serverFields = (field: string): string[] => [`${field}-server`, `${field}-server-info`, `${field}-error`, `${field}-revision`];
const clientFields = (field: string): string[] =>
  ['endpoint', 'client', 'version', 'protocol', 'subject', 'session'].map((part) => `${field}-${part}`);
/** What the Changes page and its live part show of a change; what the audit table shows of a call. */
const changeFields = ['change-server', 'change-name', 'field', 'digest', 'rejected-by', 'old', 'new'];
const auditFields = ['identity', 'profile', 'audit-server', 'audit-name', 'other-call'];
const activityQuery = `?server=${encodeURIComponent(evil('filter-server'))}&tool=${encodeURIComponent(evil('filter-tool'))}&identity=${encodeURIComponent(evil('filter-identity'))}`;

describe('the console, given markup in every field it shows', () => {
  it('escapes it on every page', async () => {
    const origin = await startConsole();
    const { refused, cookie } = await signIn(origin);
    expectEscaped('sign-in page', refused, ['sign-in-error']);
    const page = async (path: string): Promise<string> => (await fetch(`${origin}/console${path}`, { headers: { cookie } })).text();
    const everywhere = ['signed-in-subject'];
    expectEscaped('servers page', await page('/servers'), [
      ...everywhere,
      ...serverFields('local'),
      ...serverFields('other'),
      'local-url',
      'other-url',
      'gone-url',
    ]);
    expectEscaped(
      'catalog page',
      await page(`/catalog?profile=${encodeURIComponent(evil('asked'))}&q=${encodeURIComponent(evil('query'))}`),
      [...everywhere, 'profile', 'asked', 'query'],
    );
    expectEscaped('catalog page, searched', await page(`/catalog?profile=${encodeURIComponent(evil('profile'))}`), [
      'tool',
      'catalog-server',
      'original',
      'title',
      'description',
      'override',
    ]);
    expectEscaped('changes page', await page(`/changes?done=approved&item=${encodeURIComponent(evil('done-item'))}`), [
      ...everywhere,
      'done-item',
      ...changeFields,
    ]);
    expectEscaped('activity page', await page(`/activity${activityQuery}`), [
      ...everywhere,
      'filter-server',
      'filter-tool',
      'filter-identity',
      'waiting-identity',
      'waiting-profile',
      'waiting-server',
      'waiting-tool',
      'rule',
    ]);
    expectEscaped('activity page, unfiltered', await page('/activity'), auditFields);
    expectEscaped('sessions page', await page('/sessions'), [...everywhere, ...clientFields('endpoint'), ...clientFields('other')]);
    expectEscaped('missing page', await page(`/${encodeURIComponent(evil('path'))}`), everywhere);
    expectEscaped('signing-out page', String(renderSigningOut(evil('provider-url'))), ['provider-url']);
  });

  it('escapes it in every live part the event stream sends', async () => {
    const origin = await startConsole();
    const { cookie } = await signIn(origin);
    const servers = await firstEvents(origin, cookie, '', ['servers']);
    expectEscaped('servers event', servers.get('servers') ?? '', [
      ...serverFields('local'),
      ...serverFields('other'),
      'local-url',
      'other-url',
    ]);
    const changed = await firstEvents(origin, cookie, '?stream=changes', ['changes']);
    expectEscaped('changes event', changed.get('changes') ?? '', changeFields);
    const activity = await firstEvents(origin, cookie, '?stream=activity', ['activity', 'approvals']);
    expectEscaped('activity event', activity.get('activity') ?? '', auditFields);
    expectEscaped('approvals event', activity.get('approvals') ?? '', [
      'waiting-identity',
      'waiting-profile',
      'waiting-server',
      'waiting-tool',
      'rule',
    ]);
    const sessions = await firstEvents(origin, cookie, '?stream=sessions', ['sessions']);
    expectEscaped('sessions event', sessions.get('sessions') ?? '', [...clientFields('endpoint'), ...clientFields('other')]);
  });
});
