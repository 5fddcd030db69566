/**
 * /metrics of the built server: on a listener of its own ([telemetry] metrics_bind) while serving
 * stdio, and on the HTTP endpoint behind its token. Counters are read before and after MCP calls.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { promtoolProblems, scrape, seriesValue } from '../../../test-support/metrics.js';
import { cleanup, connectHttp, makeFolder, startHttp, startStdio, writeFiles } from './harness.js';

afterEach(cleanup);

const prompts = { 'greet.md': '---\ndescription: Greets\narguments:\n  - name: who\n    required: true\n---\nHello {{ who }}\n' };
const getOk = 'promptyard_request_duration_seconds_count{method="prompts/get",outcome="ok"}';

describe('metrics on a listener of their own', () => {
  it('serve a stdio server: requests by outcome, the catalog and its reloads, promtool-clean', async () => {
    const dir = await makeFolder(prompts);
    const { client, stderr } = await startStdio(['--prompts', dir], { env: { PROMPTYARD_TELEMETRY_METRICS_BIND: '127.0.0.1:0' } });
    const url = (await stderr.waitFor(/metrics at (http:\/\/\S+)/))[1] as string;
    const before = await scrape(url);
    expect(seriesValue(before, 'promptyard_catalog_prompts')).toBe(1);

    await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
    await client.getPrompt({ name: 'greet', arguments: { who: 'Lin' } });
    await expect(client.getPrompt({ name: 'greet', arguments: {} })).rejects.toThrow();
    await client.listPrompts();
    const after = await scrape(url);
    expect(seriesValue(after, getOk) - seriesValue(before, getOk)).toBe(2);
    expect(seriesValue(after, 'promptyard_request_duration_seconds_count{method="prompts/get",outcome="invalid_params"}')).toBe(1);
    expect(seriesValue(after, 'promptyard_request_duration_seconds_count{method="prompts/list",outcome="ok"}')).toBe(1);
    expect(after).not.toContain('promptyard_http_open_sessions');
    expect(promtoolProblems(after)).toBe('');

    await writeFiles(dir, { 'broken.md': '---\narguments: [\n---\nx\n' });
    await stderr.waitFor(/invalid prompt file/);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler('notifications/prompts/list_changed', () => resolve()));
    await writeFiles(dir, { 'second.md': 'Second prompt\n' });
    // The reload is counted when it is applied, before clients hear of it.
    await changed;
    const reloaded = await scrape(url);
    expect(seriesValue(reloaded, 'promptyard_catalog_prompts')).toBe(2);
    expect(seriesValue(reloaded, 'promptyard_catalog_reloads_total')).toBeGreaterThanOrEqual(2);
    expect(seriesValue(reloaded, 'promptyard_catalog_reload_errors_total')).toBe(1);
  });
});

describe('metrics on the HTTP endpoint', () => {
  it('are behind its token and count sessions', async () => {
    const dir = await makeFolder(prompts);
    const { url } = await startHttp(['--prompts', dir], { env: { PROMPTYARD_AUTH_TOKEN: 'secret-token' } });
    const metricsUrl = new URL('/metrics', url).href;
    expect((await fetch(metricsUrl)).status).toBe(401);
    const client = await connectHttp(url, { token: 'secret-token' });
    await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
    const body = await scrape(metricsUrl, { authorization: 'Bearer secret-token' });
    expect(seriesValue(body, getOk)).toBe(1);
    expect(seriesValue(body, 'promptyard_http_open_sessions')).toBe(1);
    expect(promtoolProblems(body)).toBe('');

    // The client holds its session's GET stream: a second GET takes it over (a client reconnecting after a
    // connection that died unnoticed), and one stream is counted, not two.
    const sessionId = (client.transport as { sessionId?: string } | undefined)?.sessionId as string;
    const second = await fetch(url, {
      headers: {
        authorization: 'Bearer secret-token',
        accept: 'text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      },
    });
    expect(second.status).toBe(200);
    expect(seriesValue(await scrape(metricsUrl, { authorization: 'Bearer secret-token' }), 'promptyard_http_open_streams')).toBe(1);
    await second.body?.cancel();
  });
});
