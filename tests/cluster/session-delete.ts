/**
 * A 2025-11-25 session's DELETE through the cluster: once a replica has answered it, the session is
 * gone on every replica, the one that holds it in memory included, so the next request gets 404
 * wherever the balancer sends it (the conformance suite's session-lifecycle scenario). Redis is made
 * slow on purpose (`CLIENT PAUSE … WRITE`, shorter than a replica's command timeout) so that a DELETE
 * answered before Redis dropped the record shows every time.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { Cluster } from '../../test-support/cluster.js';

const run = promisify(execFile);

/** How long Redis holds write commands back: well under the replicas' 1 s command timeout. */
const pauseMs = 600;

const post = (url: string, body: unknown, session?: string): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(session === undefined ? {} : { 'mcp-session-id': session }),
    },
    body: JSON.stringify(body),
  });

/** Opens a 2025-11-25 session on replica `index` (initialize, then initialized); returns its id. */
const openSession = async (cluster: Cluster, index: number): Promise<string> => {
  const initialize = await post(cluster.nodeUrl(index), {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'delete-test', version: '1.0.0' } },
  });
  const id = initialize.headers.get('mcp-session-id');
  await initialize.text();
  expect(initialize.status, 'initialize').toBe(200);
  if (id === null) throw new Error('initialize answered without an Mcp-Session-Id');
  const initialized = await post(cluster.nodeUrl(index), { jsonrpc: '2.0', method: 'notifications/initialized' }, id);
  await initialized.text();
  expect(initialized.status, 'notifications/initialized').toBe(202);
  return id;
};

/** The status of a tools/list in session `id` on replica `index`. */
const listStatus = async (cluster: Cluster, index: number, id: string): Promise<number> => {
  const response = await post(cluster.nodeUrl(index), { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, id);
  await response.text();
  return response.status;
};

/**
 * A session opened on replica 0 and used on replica 1 (which then holds it too) is deleted on
 * replica 0 while Redis holds writes back; right after the DELETE's answer, replicas 1 and 2 both
 * answer the session's next request with 404.
 */
export const deleteEndsSessionEverywhere = async (cluster: Cluster): Promise<void> => {
  const id = await openSession(cluster, 0);
  expect(await listStatus(cluster, 1, id), 'tools/list on replica 1 before the DELETE').toBe(200);

  await run('redis-cli', ['-p', String(cluster.redis.port), 'CLIENT', 'PAUSE', String(pauseMs), 'WRITE']);
  const deleted = await fetch(cluster.nodeUrl(0), {
    method: 'DELETE',
    headers: { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
  });
  await deleted.text();
  expect(deleted.status, 'DELETE on replica 0').toBe(200);
  const after = [await listStatus(cluster, 1, id), await listStatus(cluster, 2, id)];
  expect(after, 'tools/list on replicas 1 (it held the session) and 2 right after the DELETE was answered').toEqual([404, 404]);
};
