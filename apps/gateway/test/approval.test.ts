/**
 * `[[policy]] approve = true`, black-box: before a covered tool call is forwarded, the calling client
 * is asked — with `elicitation/create` on 2025-11-25 (stdio, SDK v2 client), with an `input_required`
 * round on 2026-07-28 (HTTP, SDK v2 client) — and the backend (test-server.mjs `--call-counter`)
 * runs the call only once a person said yes; `approve_ttl` reuses an approval for the same
 * arguments; a client that cannot be asked is told what to enable; the audit file has the decisions.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  cleanup,
  connectHttp,
  eventually,
  gatewayToml,
  startHttpGateway,
  startStdioGateway,
  stdioBackendCommand,
  textOf,
} from './harness.js';
import type { HttpGateway, StdioGateway } from './harness.js';

const math = (() => {
  const base = stdioBackendCommand({ name: 'math' });
  return { command: { ...base, args: [...base.args, '--call-counter'] } };
})();

const policy = `[audit]
file = "audit.jsonl"

[[policy]]
name = "a person approves additions"
tools = ["math_add"]
approve = true

[[policy]]
name = "echoes approved for a minute"
tools = ["math_echo"]
approve = true
approve_ttl = 60

[[policy]]
name = "the rest"
tools = ["*"]
`;
const config = gatewayToml({ math }, {}, policy);

type Answer = { action: 'accept'; content: { approve: boolean } } | { action: 'decline' | 'cancel' };

/** Answers elicitations from a queue of answers, keeping each question. */
const answering = (client: Client): { questions: string[]; answers: Answer[] } => {
  const state = { questions: [] as string[], answers: [] as Answer[] };
  client.setRequestHandler('elicitation/create', (request) => {
    state.questions.push(request.params.message);
    const answer = state.answers.shift();
    if (answer === undefined) throw new Error(`an unexpected question: ${request.params.message}`);
    return answer;
  });
  return state;
};

/** A call's outcome as text: its result (`error: ` first when isError), or the JSON-RPC error it failed with. */
const outcome = (client: Client, name: string, args: Record<string, unknown>): Promise<string> =>
  client.callTool({ name, arguments: args }).then(
    (result) => `${result.isError === true ? 'error: ' : ''}${textOf(result)}`,
    (error: unknown) => `thrown: ${(error as Error).message}`,
  );

const ranTimes = async (client: Client, tool: string): Promise<number> =>
  Number(textOf(await client.callTool({ name: 'math_calls', arguments: { name: tool } })));

const yes: Answer = { action: 'accept', content: { approve: true } };

interface AuditLine {
  readonly name: string;
  readonly decision: string;
  readonly server?: string;
  readonly profile: string;
  readonly argumentsDigest?: string;
  readonly reason?: string;
}

const auditLines = async (configPath: string): Promise<AuditLine[]> =>
  (await readFile(join(dirname(configPath), 'audit.jsonl'), 'utf8').catch(() => ''))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditLine);

describe('approval over stdio (SDK v2 client on 2025-11-25, declaring elicitation)', () => {
  let gateway: StdioGateway;
  let client: Client;
  let asked: { questions: string[]; answers: Answer[] };

  beforeAll(async () => {
    gateway = await startStdioGateway({ config, client: { capabilities: { elicitation: { form: {} } } } });
    client = gateway.client;
    expect(client.getProtocolEra()).toBe('legacy');
    asked = answering(client);
  });

  afterAll(async () => {
    expect(await cleanup()).toEqual([]);
  });

  it('asks with the server, tool and arguments, and forwards an accepted call once', async () => {
    asked.answers.push(yes);
    expect(await outcome(client, 'math_add', { a: 20, b: 22 })).toBe('42');
    expect(asked.questions).toHaveLength(1);
    expect(asked.questions[0]).toBe(
      'Approve the call of tool "math_add" on server "math"? [[policy]] #1 "a person approves additions" asks a person to approve it first.\nArguments:\n  a: 20\n  b: 22',
    );
    expect(await ranTimes(client, 'add')).toBe(1);
  });

  it('refuses a declined call, or an accept without yes, and the backend never runs it', async () => {
    asked.answers.push({ action: 'decline' }, { action: 'accept', content: { approve: false } });
    const declined = await outcome(client, 'math_add', { a: 1, b: 2 });
    expect(declined).toMatch(
      /^error: The call of tool "math_add" was not made: it needs approval \(\[\[policy\]\] #1 "a person approves additions"\) and was declined by the person asked\.$/,
    );
    expect(await outcome(client, 'math_add', { a: 1, b: 2 })).toBe(declined);
    expect(asked.questions).toHaveLength(3);
    expect(await ranTimes(client, 'add')).toBe(1);
  });

  it('asks again for every call without approve_ttl, the same arguments or others', async () => {
    asked.answers.push(yes, yes);
    expect(await outcome(client, 'math_add', { a: 20, b: 22 })).toBe('42');
    expect(await outcome(client, 'math_add', { a: 2, b: 2 })).toBe('4');
    expect(asked.questions.slice(3).map((question) => question.split('\n').slice(2).join(' '))).toEqual([
      '  a: 20   b: 22',
      '  a: 2   b: 2',
    ]);
    expect(await ranTimes(client, 'add')).toBe(3);
  });

  it('asks for a call made through the call_tool meta tool too', async () => {
    const before = asked.questions.length;
    asked.answers.push({ action: 'decline' });
    expect(await outcome(client, 'call_tool', { name: 'math_add', arguments: { a: 5, b: 5 } })).toMatch(
      /^error: The call of tool "math_add" was not made: .*declined by the person asked\.$/,
    );
    expect(asked.questions.length - before).toBe(1);
    expect(await ranTimes(client, 'add')).toBe(3);
  });

  it('reuses an approval within approve_ttl for the same arguments only', async () => {
    const before = asked.questions.length;
    asked.answers.push(yes);
    expect(await outcome(client, 'math_echo', { text: 'deploy the first build' })).toBe('deploy the first build');
    expect(await outcome(client, 'math_echo', { text: 'deploy the first build' })).toBe('deploy the first build');
    expect(asked.questions.length - before).toBe(1);
    asked.answers.push({ action: 'decline' });
    expect(await outcome(client, 'math_echo', { text: 'deploy another build' })).toMatch(/declined by the person asked/);
    expect(asked.questions.length - before).toBe(2);
    expect(await ranTimes(client, 'echo')).toBe(2);
  });

  it('writes approved and declined lines to the audit file, with digests and never the argument values', async () => {
    const lines = await eventually(
      () => auditLines(gateway.configPath),
      (found) => found.filter((line) => line.name === 'math_echo').length >= 3,
    );
    const decisions = lines
      .filter((line) => line.name === 'math_add' || line.name === 'math_echo')
      .map((line) => [line.name, line.decision]);
    expect(decisions).toEqual([
      ['math_add', 'approved'],
      ['math_add', 'declined'],
      ['math_add', 'declined'],
      ['math_add', 'approved'],
      ['math_add', 'approved'],
      ['math_add', 'declined'],
      ['math_echo', 'approved'],
      ['math_echo', 'approved'],
      ['math_echo', 'declined'],
    ]);
    const first = lines.find((line) => line.name === 'math_add');
    expect(first).toMatchObject({ server: 'math', profile: 'default', argumentsDigest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(lines.find((line) => line.decision === 'declined')?.reason).toMatch(/declined by the person asked/);
    const text = await readFile(join(dirname(gateway.configPath), 'audit.jsonl'), 'utf8');
    expect(text).not.toContain('deploy the first build');
    expect(text).not.toContain('deploy another build');
  });
});

describe('approval over HTTP', () => {
  let gateway: HttpGateway;

  beforeAll(async () => {
    // A person who never answers is given the tool's timeout.
    gateway = await startHttpGateway({ config: gatewayToml({ math: { ...math, tool_timeout: 2000 } }, {}, policy) });
  });

  afterAll(async () => {
    expect(await cleanup()).toEqual([]);
  });

  it('asks a 2026-07-28 client with an input_required round, and forwards the accepted call', async () => {
    const client = await connectHttp(gateway.url, { era: 'modern', client: { capabilities: { elicitation: { form: {} } } } });
    expect(client.getProtocolEra()).toBe('modern');
    const asked = answering(client);
    asked.answers.push(yes);
    expect(await outcome(client, 'math_add', { a: 40, b: 2 })).toBe('42');
    expect(asked.questions).toEqual([
      expect.stringMatching(/^Approve the call of tool "math_add" on server "math"\?.*\nArguments:\n {2}a: 40\n {2}b: 2$/s),
    ]);
    expect(await ranTimes(client, 'add')).toBe(1);

    // On the wire: the call answers with an input_required round asking for the approval.
    const round = (await client.request(
      { method: 'tools/call', params: { name: 'math_add', arguments: { a: 1, b: 1 } } },
      { allowInputRequired: true },
    )) as { resultType?: string; inputRequests?: Record<string, { method: string; params?: { message?: string } }> };
    expect(round.resultType).toBe('input_required');
    const [request] = Object.values(round.inputRequests ?? {});
    expect(request?.method).toBe('elicitation/create');
    expect(request?.params?.message).toMatch(/^Approve the call of tool "math_add"/);
    expect(await ranTimes(client, 'add')).toBe(1);
  });

  it('refuses a call nobody answers for within the tool timeout (a 2025-11-25 session)', async () => {
    const session = await connectHttp(gateway.url, { client: { capabilities: { elicitation: { form: {} } } } });
    let questions = 0;
    session.setRequestHandler('elicitation/create', () => {
      questions += 1;
      return new Promise<never>(() => {});
    });
    expect(await outcome(session, 'math_add', { a: 3, b: 4 })).toMatch(
      /^error: The call of tool "math_add" was not made: it needs approval \(.*\) and was not answered within 2 s\.$/,
    );
    expect(questions).toBe(1);
    expect(await ranTimes(session, 'add')).toBe(1);
  });

  it('tells a client that cannot be asked what the operator must enable, and never runs the call', async () => {
    const plain = await connectHttp(gateway.url);
    expect(plain.getProtocolEra()).toBe('legacy');
    const before = await ranTimes(plain, 'add');
    expect(await outcome(plain, 'math_add', { a: 1, b: 2 })).toMatch(
      /^error: The call of tool "math_add" needs a person's approval \(\[\[policy\]\] #1 "a person approves additions"\), but this client cannot be asked: use a client that supports elicitation \(form mode\).*or remove approve from that \[\[policy\]\] rule\.$/,
    );
    expect(await ranTimes(plain, 'add')).toBe(before);
    // This call's own line: the last math_add decision, declined because nobody could be asked.
    const lines = await eventually(
      () => auditLines(gateway.configPath),
      (found) => /cannot be asked/.test(found.filter((line) => line.name === 'math_add').at(-1)?.reason ?? ''),
    );
    expect(lines.filter((line) => line.name === 'math_add').at(-1)).toMatchObject({ decision: 'declined' });
    expect(lines.filter((line) => line.name === 'math_add').map((line) => line.decision)).toContain('approved');
  });

  it('asks an SDK v1 client in a 2025-11-25 session, and forwards the accepted call once', async () => {
    const client = new ClientV1({ name: 'approval-e2e-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const questions: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      questions.push(request.params.message);
      return { action: 'accept', content: { approve: true } };
    });
    await client.connect(new TransportV1(new URL(gateway.url)));
    try {
      const before = Number(textOf((await client.callTool({ name: 'math_calls', arguments: { name: 'add' } })) as { content?: unknown }));
      const result = (await client.callTool({ name: 'math_add', arguments: { a: 6, b: 7 } })) as { content?: unknown };
      expect(textOf(result)).toBe('13');
      expect(questions).toEqual([expect.stringMatching(/^Approve the call of tool "math_add" on server "math"\?/)]);
      const after = Number(textOf((await client.callTool({ name: 'math_calls', arguments: { name: 'add' } })) as { content?: unknown }));
      expect(after - before).toBe(1);
    } finally {
      await client.close();
    }
  });
});
