import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@promptyard/core';
import type { AccessPolicy } from '@promptyard/core';
import { RpcError } from '@promptyard/mcp';
import type { ClientPeer } from '@promptyard/mcp';
import { Approvals } from './calls/approval.js';
import { Router } from './router.js';
import { killAllChildren } from './sdk/kill.js';
import { backendConfig, routerConfig } from './test-router-config.js';

/** A real stdio MCP server (the SDK's low-level Server) with a few tools, written to a temp file. */
const serverScript = `
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
const name = process.argv[2];
const server = new Server({ name, version: '1' }, { capabilities: { tools: {} } });
const tools = ['echo', 'shared', 'ask', 'secret_admin', 'hang', 'fail', 'slowdb', 'crash'].map((tool) => ({ name: tool, description: tool + ' tool of ' + name + '. Second sentence.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }));
server.setRequestHandler('tools/list', async () => ({ tools }));
server.setRequestHandler('tools/call', async (request, ctx) => {
  if (request.params.name === 'hang') return new Promise(() => {});
  if (request.params.name === 'crash') process.exit(3);
  if (request.params.name === 'fail') throw new Error('it failed on purpose');
  if (request.params.name === 'slowdb') throw new Error('the database timed out');
  if (request.params.name === 'ask') {
    const answer = await ctx.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: 'q' } }], maxTokens: 5 });
    return { content: [{ type: 'text', text: 'answer: ' + answer.content.text }] };
  }
  return { content: [{ type: 'text', text: name + ':' + request.params.name + ':' + (request.params.arguments?.text ?? '') }] };
});
await server.connect(new StdioServerTransport());
`;

let router: Router;

const peer = (session: object, text: string, gate?: Promise<void>): ClientPeer => ({
  label: 'test',
  session,
  sampling: async () => {
    await gate;
    return { model: 'm', role: 'assistant', content: { type: 'text', text } };
  },
});

beforeAll(async () => {
  const script = join(process.cwd(), 'packages/router/.router-test-server.mjs');
  await writeFile(script, serverScript);
  const config = routerConfig([
    backendConfig('alpha', {
      command: process.execPath,
      args: [script, 'alpha'],
      toolTimeoutMs: 400,
      tools: { allow: [], deny: ['secret_*'] },
    }),
    backendConfig('beta', { command: process.execPath, args: [script, 'beta'], prefix: false }),
    backendConfig('gamma', { command: process.execPath, args: [script, 'gamma'], prefix: false }),
  ]);
  router = new Router(config, { logger: silentLogger(), version: '0.0.0' });
  await router.start();
}, 20_000);

afterAll(async () => {
  await router.close();
  killAllChildren();
  await rm(join(process.cwd(), 'packages/router/.router-test-server.mjs'), { force: true });
});

describe('Router', () => {
  it('namespaces, filters and passes names through, reporting collisions instead of shadowing', () => {
    const names = router
      .view()
      .listTools()
      .map((tool) => tool.name);
    expect(names.slice(0, 7)).toEqual([
      'catalog_tools',
      'describe_tool',
      'search_tools',
      'call_tool',
      'catalog_prompts',
      'describe_prompt',
      'search_prompts',
    ]);
    expect(names).toEqual(expect.arrayContaining(['alpha_echo', 'alpha_shared', 'echo', 'shared', 'secret_admin']));
    expect(names).not.toContain('alpha_secret_admin');
    // beta and gamma both pass `echo` through: beta (first in the config) keeps it, gamma's is reported.
    expect(router.view().toolOwner('echo')).toEqual({ server: 'beta', original: 'echo' });
    expect(router.status().collisions).toEqual(
      expect.arrayContaining([{ kind: 'tool', name: 'echo', kept: 'beta/echo', dropped: 'gamma/echo' }]),
    );
  });

  it('routes calls to the owning server and suggests names for unknown ones', async () => {
    expect((await router.view().callTool('alpha_echo', { text: 'hi' })).content).toEqual([{ type: 'text', text: 'alpha:echo:hi' }]);
    expect((await router.view().callTool('shared', {})).content).toEqual([{ type: 'text', text: 'beta:shared:' }]);
    await expect(router.view().callTool('alpha_ech', {})).rejects.toMatchObject({
      code: 'TOOL_NOT_FOUND',
      message: expect.stringContaining('Did you mean "alpha_echo"'),
    });
  });

  it("tells the gateway's own timeout from a backend error that mentions one", async () => {
    await expect(router.view().callTool('alpha_hang', {})).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringContaining('within 400 ms'),
    });
    const backendError = await router
      .view()
      .callTool('alpha_slowdb', {})
      .catch((error: unknown) => error);
    expect(backendError).toBeInstanceOf(RpcError);
    expect(backendError).toMatchObject({ message: expect.stringMatching(/^alpha: .*the database timed out/) });
  });

  it('finds tools through the meta tools', async () => {
    const found = await router.view().callTool('search_tools', { query: 'shared alpha' });
    expect(found.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('alpha_shared') });
    const described = await router.view().callTool('describe_tool', { name: 'alpha_echo' });
    expect(JSON.parse((described.content[0] as { text: string }).text)).toMatchObject({
      name: 'alpha_echo',
      server: 'alpha',
      inputSchema: { type: 'object' },
    });
    expect((await router.view().callTool('call_tool', { name: 'alpha_echo', arguments: { text: 'via meta' } })).content).toEqual([
      { type: 'text', text: 'alpha:echo:via meta' },
    ]);
  });

  it('asks the calling client for sampling, and refuses to guess between two clients', async () => {
    const one = {};
    expect((await router.view().callTool('alpha_ask', {}, { peer: peer(one, 'from one') })).content).toEqual([
      { type: 'text', text: 'answer: from one' },
    ]);

    // Two clients with calls in flight on the same 2025-era server: the request names neither.
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = router.view().callTool('alpha_ask', {}, { peer: peer({}, 'first', gate) });
    const second = router.view().callTool('alpha_ask', {}, { peer: peer({}, 'second', gate) });
    release();
    const results = await Promise.allSettled([first, second]);
    const texts = results.map((result) => (result.status === 'fulfilled' ? JSON.stringify(result.value) : String(result.reason)));
    expect(texts.join('\n')).toMatch(/2 clients had calls in flight/);
  });

  describe('relayToolCall (the stdio hot path)', () => {
    const relay = (name: string, args: Record<string, unknown> = {}, peerObject?: ClientPeer) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const handle = router
          .view()
          .relayToolCall({ id: 'down-7', params: { name, arguments: args } }, peerObject, (message) => resolve({ ...message }));
        if (handle === undefined) resolve({ notRelayed: true });
      });

    it("relays a call with the original name and gives the answer back under the client's id", async () => {
      expect(await relay('alpha_echo', { text: 'fast' })).toEqual({
        jsonrpc: '2.0',
        id: 'down-7',
        result: { content: [{ type: 'text', text: 'alpha:echo:fast' }] },
      });
    });

    it('leaves unknown names, meta tools and calls that want progress to the full path', () => {
      expect(router.view().relayToolCall({ id: 1, params: { name: 'nope' } }, undefined, () => {})).toBeUndefined();
      expect(
        router.view().relayToolCall({ id: 1, params: { name: 'search_tools', arguments: { query: 'x' } } }, undefined, () => {}),
      ).toBeUndefined();
      expect(
        router.view().relayToolCall({ id: 1, params: { name: 'alpha_echo', _meta: { progressToken: 5 } } }, undefined, () => {}),
      ).toBeUndefined();
    });

    it("passes a backend's error through and answers a hung call at the server's timeout", async () => {
      const failed = await relay('alpha_fail');
      // A handler that throws is a JSON-RPC error from the low-level server: passed on, naming the server.
      expect(failed).toMatchObject({ id: 'down-7', error: { message: expect.stringMatching(/^alpha: .*it failed on purpose/) } });
      const started = Date.now();
      const hung = await relay('alpha_hang');
      expect(Date.now() - started).toBeGreaterThanOrEqual(350);
      expect(hung).toEqual({
        jsonrpc: '2.0',
        id: 'down-7',
        result: {
          isError: true,
          content: [{ type: 'text', text: expect.stringMatching(/^Server "alpha" did not answer tools\/call "hang" within 400 ms/) }],
        },
      });
    });

    it("attributes the backend's sampling request to the relayed caller", async () => {
      expect(await relay('alpha_ask', {}, peer({}, 'relayed'))).toMatchObject({
        result: { content: [{ type: 'text', text: 'answer: relayed' }] },
      });
    });

    it('fails a call in flight when the server exits, naming it', async () => {
      const crashed = await relay('alpha_crash');
      expect(crashed).toEqual({
        jsonrpc: '2.0',
        id: 'down-7',
        result: {
          isError: true,
          content: [{ type: 'text', text: expect.stringMatching(/^Server "alpha" stopped while handling tools\/call "crash"/) }],
        },
      });
      expect(router.backend('alpha')?.state).not.toBe('ready');
    });
  });
});

describe('Router.pendingApprovals', () => {
  it('lists the calls waiting for a person, and tells when that changes; none without approvals', async () => {
    const policy: AccessPolicy = {
      version: 'v1',
      decide: () => ({ allowed: true, explicit: true, reason: 'test' }),
      approval: () => ({ label: '[[policy]] #1 "asks"', ttlMs: 0 }),
      admits: () => undefined,
    };
    const approvals = new Approvals(policy, { logger: silentLogger() });
    const asking = new Router(routerConfig([]), { logger: silentLogger(), version: '0.0.0', approvals });
    try {
      let heard = 0;
      const stop = asking.onPendingApprovals(() => (heard += 1));
      let answer: () => void = () => {};
      const person: ClientPeer = {
        label: 'test',
        session: {},
        elicitation: () => new Promise((resolve) => (answer = () => resolve({ action: 'accept', content: { approve: true } }))),
      };
      const rule = { label: '[[policy]] #1 "asks"', ttlMs: 0 };
      const call = approvals.obtain({
        rule,
        profile: 'default',
        server: 'alpha',
        tool: 'alpha_echo',
        args: {},
        peer: person,
        timeoutMs: 5000,
      });
      expect(asking.pendingApprovals()).toMatchObject([{ profile: 'default', server: 'alpha', tool: 'alpha_echo' }]);
      answer();
      await call;
      expect(asking.pendingApprovals()).toEqual([]);
      expect(heard).toBe(2);
      stop();
      expect(router.pendingApprovals()).toEqual([]);
      expect(typeof router.onPendingApprovals(() => {})).toBe('function');
    } finally {
      await asking.close();
    }
  });
});
