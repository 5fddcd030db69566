/**
 * promptyard-gateway, black-box: a 2026-07-28 client (no server→client requests) answers a 2025-era
 * backend's elicitation and sampling requests as `input_required` rounds of its call, through the
 * HTTP gateway in front of server-everything (stdio): form and URL elicitation, sampling.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { cleanup, connectHttp, everythingCommand, gatewayToml, startHttpGateway, textOf } from './harness.js';
import type { HttpGateway } from './harness.js';

describe('input_required rounds for a 2025-era backend (HTTP gateway, server-everything, 2026-07-28 client)', () => {
  let gateway: HttpGateway;
  let client: Client;
  const asked: string[] = [];

  beforeAll(async () => {
    gateway = await startHttpGateway({ config: gatewayToml({ everything: { command: everythingCommand('stdio') } }) });
    client = await connectHttp(gateway.url, {
      era: 'modern',
      client: { capabilities: { elicitation: { form: {}, url: {} }, sampling: {} } },
    });
    expect(client.getProtocolEra()).toBe('modern');
    client.setRequestHandler('elicitation/create', (request) => {
      if (request.params.mode === 'url') {
        asked.push(`url: ${request.params.url}`);
        return { action: 'accept' };
      }
      asked.push(`elicitation: ${request.params.message}`);
      return { action: 'accept', content: { name: 'Ada Lovelace', check: true, email: 'ada@example.com' } };
    });
    client.setRequestHandler('sampling/createMessage', (request) => {
      const first = request.params.messages[0]?.content;
      asked.push(`sampling: ${first !== undefined && 'text' in first ? String(first.text) : ''}`);
      return { role: 'assistant', model: 'e2e-model', content: { type: 'text', text: 'a sampled answer' } };
    });
  });

  afterAll(async () => {
    expect(await cleanup()).toEqual([]);
  });

  it('answers everything_trigger-elicitation-request: the form reaches the client and its answer the backend', async () => {
    const result = await client.callTool({ name: 'everything_trigger-elicitation-request', arguments: {} });
    expect(asked.at(-1)).toBe('elicitation: Please provide inputs for the following fields:');
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toContain('Ada Lovelace');
  });

  it('answers everything_trigger-url-elicitation: the URL reaches the client', async () => {
    const result = await client.callTool({ name: 'everything_trigger-url-elicitation', arguments: { url: 'https://example.com/consent' } });
    expect(asked.at(-1)).toBe('url: https://example.com/consent');
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toMatch(/accept/);
  });

  it('turns a URL elicitation the backend signals as an error (-32042) into a round, and the retry into a fresh call', async () => {
    const before = asked.length;
    const result = await client.callTool({
      name: 'everything_trigger-url-elicitation',
      arguments: { url: 'https://example.com/after', errorPath: true },
    });
    const urls = asked.slice(before);
    expect(urls).toHaveLength(2);
    expect(urls[0]).toMatch(/^url: https?:\/\//);
    expect(urls[1]).toBe('url: https://example.com/after');
    expect(result.isError).not.toBe(true);
  });

  it("answers everything_trigger-sampling-request: the backend gets the client's completion", async () => {
    const result = await client.callTool({
      name: 'everything_trigger-sampling-request',
      arguments: { prompt: 'Say hello', maxTokens: 20 },
    });
    expect(asked.at(-1)).toMatch(/^sampling: .*Say hello/);
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toContain('a sampled answer');
  });

  it('shows the rounds on the wire, and says so clearly when a requestState names a call that is over', async () => {
    const call = (extra: Record<string, unknown>) =>
      client.request(
        { method: 'tools/call', params: { name: 'everything_trigger-elicitation-request', arguments: {}, ...extra } },
        { allowInputRequired: true },
      );
    const first = (await call({})) as { resultType?: string; inputRequests?: Record<string, { method: string }>; requestState?: string };
    expect(first.resultType).toBe('input_required');
    const [key, request] = Object.entries(first.inputRequests ?? {})[0] ?? [];
    expect(request?.method).toBe('elicitation/create');
    const answer = { inputResponses: { [key as string]: { action: 'decline' } }, requestState: first.requestState };
    const done = (await call(answer)) as { resultType?: string; content?: unknown };
    expect(done.resultType).not.toBe('input_required');
    expect(textOf(done)).toMatch(/decline/i);
    await expect(call(answer)).rejects.toThrow(/is over: it finished, was cancelled, or waited more than 600 s for this retry/);
  });

  it('tells a 2026-07-28 client that declares no sampling that the backend asked for it', async () => {
    const plain = await connectHttp(gateway.url, { era: 'modern', client: { capabilities: { elicitation: { form: {} } } } });
    const result = await plain.callTool({ name: 'everything_trigger-sampling-request', arguments: { prompt: 'x' } }).then(textOf, String);
    expect(result).toMatch(/asked for sampling, but no connected client can answer it: the client must declare the sampling capability/);
  });

  it('refuses a requestState it did not mint', async () => {
    const tampered = client.request({
      method: 'tools/call',
      params: { name: 'everything_echo', arguments: { message: 'x' }, requestState: 'v1.forged.state' },
    });
    await expect(tampered).rejects.toThrow(/Invalid or expired requestState/);
  });
});
