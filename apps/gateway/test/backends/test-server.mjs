#!/usr/bin/env node
/**
 * A configurable MCP server the gateway's black-box tests and benchmark use as a real backend.
 *
 *   node test-server.mjs --name <n> [--transport stdio|http] [--era both|legacy] [--port 0] [--env-tool]
 *                        [--handshake-delay-ms <ms>] [--never-answer] [--redescribe-tool] [--schema-variant 1|2]
 *                        [--call-counter]
 *
 * stdio serves both protocol eras (the SDK's `serveStdio` pins the era on the opening exchange).
 * http serves Streamable HTTP on 127.0.0.1 at /mcp and prints `listening on http://127.0.0.1:<port>/mcp`
 * on stderr: `--era both` answers 2026-07-28 requests with `createMcpHandler` and gives 2025-era
 * clients sessions; `--era legacy` serves only 2025-era sessions and rejects the `server/discover`
 * probe with HTTP 400 + JSON-RPC -32601, which the SDK client reads as "legacy server".
 * Over stdio, `--handshake-delay-ms` starts reading only after that long (a slow but working server);
 * `--never-answer` never reads at all and ignores SIGTERM (a hung server only SIGKILL ends).
 *
 * Server→client requests (`sample`, `elicit`, `roots`) return `inputRequired(...)`: on a 2026-07-28
 * connection the client answers the embedded request and retries the call; on a 2025-era connection
 * the SDK's legacy shim turns the same return into real `sampling/createMessage`, `elicitation/create`
 * and `roots/list` requests. One handler, both eras.
 *
 * `--listen error|silent|drop-once` (http) breaks only `subscriptions/listen`: answered with a JSON-RPC
 * error, with an event stream that never acknowledges, or (the first one) acknowledged and then
 * ended; `--listen json-lines|none` frames it as newline-delimited JSON or has none (listen-front.mjs).
 * `--ttl-ms <ms>` puts that `ttlMs` on the 2026-07-28 list results. `--silent-discover` never answers the `server/discover` probe (2025 requests are served).
 * Every `server/discover` probe and listen request is logged on stderr.
 *
 * `--env-tool` adds a tool `env` that reports environment variables (left out by default so the
 * tool counts other tests expect stay the same).
 *
 * `--redescribe-tool` adds a tool `redescribe` that changes another tool's description at run time and
 * sends `notifications/tools/list_changed` (a "rug pull"); `--schema-variant 2` gives `echo` another
 * input schema (an optional `loud` flag) from the start, as an upgraded server would.
 * `--call-counter` adds a tool `calls` that says how many times this process ran the tool `name`.
 *
 * State that a test observes across calls (runtime tools, the cancelled-call count) is per process,
 * so it holds across the per-request instances of the modern HTTP entry. Logs go to stderr only.
 */
import { parseArgs } from 'node:util';
import { createMcpHandler, inputRequired, inputResponse, ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { jsonRpcError, serveBothEras } from './http-fixture.mjs';
import { listenFront } from './listen-front.mjs';

const { values: options } = parseArgs({
  options: {
    name: { type: 'string', default: 'test' },
    transport: { type: 'string', default: 'stdio' },
    era: { type: 'string', default: 'both' },
    port: { type: 'string', default: '0' },
    'env-tool': { type: 'boolean', default: false },
    listen: { type: 'string', default: 'ok' },
    'ttl-ms': { type: 'string' },
    'silent-discover': { type: 'boolean', default: false },
    'handshake-delay-ms': { type: 'string', default: '0' },
    'never-answer': { type: 'boolean', default: false },
    'redescribe-tool': { type: 'boolean', default: false },
    'schema-variant': { type: 'string', default: '1' },
    'call-counter': { type: 'boolean', default: false },
  },
});
const name = options.name;
if (!['stdio', 'http'].includes(options.transport)) throw new Error(`--transport must be stdio or http, not ${options.transport}`);
if (!['both', 'legacy'].includes(options.era)) throw new Error(`--era must be both or legacy, not ${options.era}`);
if (!['ok', 'error', 'silent', 'drop-once', 'json-lines', 'none'].includes(options.listen))
  throw new Error(`--listen must be ok, error, silent, drop-once, json-lines or none, not ${options.listen}`);
/** What the 2026-07-28 list results add: the `ttlMs` asked for, if any. */
const freshness = (era) => (era === 'modern' && options['ttl-ms'] !== undefined ? { ttlMs: Number(options['ttl-ms']) } : {});
if (!['1', '2'].includes(options['schema-variant'])) throw new Error(`--schema-variant must be 1 or 2, not ${options['schema-variant']}`);
const log = (message) => process.stderr.write(`[test-server ${name}] ${message}\n`);

// ---------------------------------------------------------------------------------------------
// Process-wide state
// ---------------------------------------------------------------------------------------------

/** Tools added with `add_tool`, name → description. */
const runtimeTools = new Map();
/** Descriptions changed with `redescribe`, name → description. */
const redescribed = new Map();
/** How many times each tool ran, name → count (`--call-counter`). */
const callCounts = new Map();
let cancelledCalls = 0;
/** `slow` calls waiting now: a test cancels a call once it is here. */
let slowCalls = 0;

/** Every live instance that pushes notifications itself (stdio, 2025-era HTTP sessions). */
const liveInstances = new Set();
/** The modern HTTP entry's notifier, when serving HTTP with `--era both`. */
let modernNotify;

const broadcast = (send, notifyModern) => {
  for (const instance of liveInstances) send(instance);
  if (modernNotify !== undefined) notifyModern(modernNotify);
};

// 1×1 transparent PNG and a 4-sample 8 kHz mono 8-bit WAV: the smallest valid payloads.
const pngBase64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const wavBase64 = (() => {
  const samples = Buffer.from([128, 160, 128, 96]);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]).toString('base64');
})();

const infoUri = `test://${name}/info`;
const itemTemplate = `test://${name}/items/{id}`;
const itemPattern = new RegExp(`^test://${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/items/([^/]+)$`);
const styles = ['formal', 'casual'];
const itemIds = ['1', '2', '3'];
const levels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

const text = (value) => ({ content: [{ type: 'text', text: value }] });
const toolError = (message) => ({ content: [{ type: 'text', text: message }], isError: true });
const object = (properties, required = Object.keys(properties)) => ({ type: 'object', properties, required });
const str = { type: 'string' };
const num = { type: 'number' };

const staticTools = [
  {
    name: 'echo',
    description: 'Returns its text.',
    inputSchema: options['schema-variant'] === '2' ? object({ text: str, loud: { type: 'boolean' } }, ['text']) : object({ text: str }),
  },
  {
    name: 'add',
    description: 'Adds two numbers.',
    inputSchema: object({ a: num, b: num }),
    outputSchema: object({ sum: num }),
  },
  { name: 'content_kinds', description: 'Returns one content block of each kind.', inputSchema: object({}) },
  {
    name: 'progress',
    description: 'Reports `steps` progress notifications, `delayMs` apart.',
    inputSchema: object({ steps: num, delayMs: num }, ['steps']),
  },
  { name: 'slow', description: 'Waits `ms` milliseconds; cancellable.', inputSchema: object({ ms: num }) },
  { name: 'busy', description: 'How many `slow` calls of this process are waiting now.', inputSchema: object({}) },
  { name: 'hang', description: 'Never answers until cancelled.', inputSchema: object({}) },
  { name: 'was_cancelled', description: 'How many calls of this process were cancelled.', inputSchema: object({}) },
  { name: 'sample', description: 'Asks the client model and returns "sampled: <text>".', inputSchema: object({ prompt: str }) },
  { name: 'elicit', description: 'Asks the user for a name.', inputSchema: object({ message: str }) },
  { name: 'roots', description: "Lists the client's roots, one URI a line.", inputSchema: object({}) },
  {
    name: 'log',
    description: 'Sends a log notification at `level`.',
    inputSchema: object({ level: { type: 'string', enum: levels }, message: str }),
  },
  { name: 'add_tool', description: 'Registers an echo-like tool at run time.', inputSchema: object({ name: str }) },
  { name: 'remove_tool', description: 'Removes a tool added with add_tool.', inputSchema: object({ name: str }) },
  { name: 'crash', description: 'Exits the process (code 3) mid-call.', inputSchema: object({}) },
  { name: 'touch_resource', description: 'Sends notifications/resources/updated for `uri`.', inputSchema: object({ uri: str }) },
  { name: 'whoami', description: 'Name, pid and protocol era of this call.', inputSchema: object({}) },
  ...(options['redescribe-tool']
    ? [
        {
          name: 'redescribe',
          description: "Changes a tool's description at run time.",
          inputSchema: object({ name: str, description: str }),
        },
      ]
    : []),
  ...(options['call-counter']
    ? [{ name: 'calls', description: 'How many times this process ran the tool `name`.', inputSchema: object({ name: str }) }]
    : []),
  ...(options['env-tool']
    ? [
        {
          name: 'env',
          description:
            'The value of each named environment variable, one `NAME=value` (or `NAME unset`) a line, then how many variables there are.',
          inputSchema: object({ names: { type: 'array', items: str } }),
        },
      ]
    : []),
];
const staticNames = new Set(staticTools.map((tool) => tool.name));

const listTools = () =>
  [
    ...staticTools,
    ...[...runtimeTools].map(([toolName, description]) => ({ name: toolName, description, inputSchema: object({ text: str }, []) })),
  ].map((tool) => (redescribed.has(tool.name) ? { ...tool, description: redescribed.get(tool.name) } : tool));

/** Resolves after `ms`, or rejects when `signal` aborts (counting the cancellation). */
const wait = (ms, signal) =>
  new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      cancelledCalls += 1;
      log(`call cancelled (${cancelledCalls} so far)`);
      reject(signal.reason ?? new Error('cancelled'));
    };
    const timer =
      ms === Infinity
        ? undefined
        : setTimeout(() => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          }, ms);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });

const needString = (args, key) => {
  const value = args?.[key];
  if (typeof value !== 'string') throw new TypeError(`argument "${key}" must be a string`);
  return value;
};
const needNumber = (args, key, fallback) => {
  const value = args?.[key] ?? fallback;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`argument "${key}" must be a number`);
  return value;
};

// ---------------------------------------------------------------------------------------------
// Tool handlers: (args, ctx, era) → CallToolResult | InputRequiredResult
// ---------------------------------------------------------------------------------------------

const tools = {
  echo: (args) => text(needString(args, 'text')),

  add: (args) => {
    const sum = needNumber(args, 'a') + needNumber(args, 'b');
    return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
  },

  content_kinds: () => ({
    content: [
      { type: 'text', text: 'text block' },
      { type: 'image', data: pngBase64, mimeType: 'image/png' },
      { type: 'audio', data: wavBase64, mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: infoUri, mimeType: 'text/plain', text: `info for ${name}` } },
      { type: 'resource_link', uri: infoUri, name: 'info', mimeType: 'text/plain' },
    ],
  }),

  progress: async (args, ctx) => {
    const steps = needNumber(args, 'steps');
    const delayMs = needNumber(args, 'delayMs', 0);
    const progressToken = ctx.mcpReq._meta?.progressToken;
    for (let step = 1; step <= steps; step++) {
      if (delayMs > 0) await wait(delayMs, ctx.mcpReq.signal);
      if (progressToken !== undefined) {
        await ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken, progress: step, total: steps, message: `step ${step}` },
        });
      }
    }
    return text(`done ${steps}`);
  },

  slow: async (args, ctx) => {
    const ms = needNumber(args, 'ms');
    slowCalls += 1;
    try {
      await wait(ms, ctx.mcpReq.signal);
    } finally {
      slowCalls -= 1;
    }
    return text(`slept ${ms}`);
  },

  busy: () => text(String(slowCalls)),

  hang: async (_args, ctx) => {
    await wait(Infinity, ctx.mcpReq.signal);
    return text('unreachable');
  },

  was_cancelled: () => text(String(cancelledCalls)),

  sample: (args, ctx) => {
    const prompt = needString(args, 'prompt');
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'sample');
    if (answer.kind !== 'sampling') {
      return inputRequired({
        inputRequests: {
          sample: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 }),
        },
      });
    }
    const content = Array.isArray(answer.result.content) ? answer.result.content : [answer.result.content];
    return text(`sampled: ${content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('')}`);
  },

  elicit: (args, ctx) => {
    const message = needString(args, 'message');
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'name');
    if (answer.kind !== 'elicit') {
      return inputRequired({
        inputRequests: {
          name: inputRequired.elicit({
            message,
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          }),
        },
      });
    }
    const given = answer.action === 'accept' && typeof answer.content?.name === 'string' ? answer.content.name : '';
    return text(`action=${answer.action} name=${given}`);
  },

  roots: (_args, ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'roots');
    if (answer.kind !== 'roots') return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
    return text(answer.roots.map((root) => root.uri).join('\n'));
  },

  log: async (args, ctx) => {
    const level = needString(args, 'level');
    if (!levels.includes(level)) throw new TypeError(`argument "level" must be one of ${levels.join(', ')}`);
    await ctx.mcpReq.log(level, needString(args, 'message'), name);
    return text('logged');
  },

  add_tool: (args) => {
    const toolName = needString(args, 'name');
    if (staticNames.has(toolName)) return toolError(`"${toolName}" is a built-in tool`);
    runtimeTools.set(toolName, `Runtime tool ${toolName}: returns its text.`);
    broadcast(
      (instance) => instance.sendToolListChanged().catch(() => {}),
      (notify) => notify.toolsChanged(),
    );
    return text(`added ${toolName}`);
  },

  remove_tool: (args) => {
    const toolName = needString(args, 'name');
    if (!runtimeTools.delete(toolName)) return toolError(`"${toolName}" was not added with add_tool`);
    broadcast(
      (instance) => instance.sendToolListChanged().catch(() => {}),
      (notify) => notify.toolsChanged(),
    );
    return text(`removed ${toolName}`);
  },

  ...(options['redescribe-tool']
    ? {
        redescribe: (args) => {
          const toolName = needString(args, 'name');
          if (!listTools().some((tool) => tool.name === toolName)) return toolError(`no tool "${toolName}"`);
          redescribed.set(toolName, needString(args, 'description'));
          broadcast(
            (instance) => instance.sendToolListChanged().catch(() => {}),
            (notify) => notify.toolsChanged(),
          );
          return text(`redescribed ${toolName}`);
        },
      }
    : {}),

  crash: () => {
    log('crashing on request');
    process.exit(3);
  },

  touch_resource: (args) => {
    const uri = needString(args, 'uri');
    broadcast(
      (instance) => {
        // A 2025-era instance tells only subscribers; on modern stdio the entry routes to listeners.
        if (instance.era === 'modern' || instance.subscriptions.has(uri)) instance.server.sendResourceUpdated({ uri }).catch(() => {});
      },
      (notify) => notify.resourceUpdated(uri),
    );
    return text(`touched ${uri}`);
  },

  whoami: (_args, _ctx, era) => text(`name=${name} pid=${process.pid} era=${era}`),

  ...(options['call-counter'] ? { calls: (args) => text(String(callCounts.get(needString(args, 'name')) ?? 0)) } : {}),

  ...(options['env-tool']
    ? {
        env: (args) => {
          const names = args?.names;
          if (!Array.isArray(names)) throw new TypeError('argument "names" must be a list of strings');
          const lines = names.map((key) => (process.env[key] === undefined ? `${key} unset` : `${key}=${process.env[key]}`));
          return text([...lines, `count=${Object.keys(process.env).length}`].join('\n'));
        },
      }
    : {}),
};

// ---------------------------------------------------------------------------------------------
// One server instance
// ---------------------------------------------------------------------------------------------

const completeFrom = (values, prefix) => {
  const matches = values.filter((value) => value.startsWith(prefix));
  return { completion: { values: matches, total: matches.length, hasMore: false } };
};

const readResource = (uri) => {
  if (uri === infoUri) return { contents: [{ uri, mimeType: 'text/plain', text: `info for ${name} (pid ${process.pid})` }] };
  const item = itemPattern.exec(uri);
  if (item !== null) return { contents: [{ uri, mimeType: 'text/plain', text: `item ${decodeURIComponent(item[1])}` }] };
  throw new ProtocolError(ProtocolErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
};

/**
 * Builds one low-level server. `live` instances (stdio, 2025-era sessions) push their own
 * notifications and are kept in `liveInstances` until closed.
 */
const createInstance = (era, live) => {
  const server = new Server(
    { name: `test-server-${name}`, version: '1.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        completions: {},
        logging: {},
      },
    },
  );
  const instance = { server, era, subscriptions: new Set(), sendToolListChanged: () => server.sendToolListChanged() };

  server.setRequestHandler('tools/list', () => ({ tools: listTools(), ...freshness(era) }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name: toolName, arguments: args } = request.params;
    const handler =
      tools[toolName] ?? (runtimeTools.has(toolName) ? (toolArgs) => text(`${toolName}: ${toolArgs?.text ?? ''}`) : undefined);
    if (handler === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${toolName}`);
    callCounts.set(toolName, (callCounts.get(toolName) ?? 0) + 1);
    try {
      return await handler(args ?? {}, ctx, era);
    } catch (error) {
      if (error instanceof TypeError) return toolError(error.message);
      throw error;
    }
  });

  server.setRequestHandler('prompts/list', () => ({
    ...freshness(era),
    prompts: [
      {
        name: 'greet',
        description: 'Greets someone.',
        arguments: [
          { name: 'name', description: 'Who to greet', required: true },
          { name: 'style', description: 'formal or casual (default casual)', required: false },
        ],
      },
      { name: 'pid_prompt', description: 'Names the serving process.' },
    ],
  }));
  server.setRequestHandler('prompts/get', (request) => {
    const { name: promptName, arguments: args = {} } = request.params;
    if (promptName === 'greet') {
      if (typeof args.name !== 'string') throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'prompt "greet" needs argument "name"');
      return { messages: [{ role: 'user', content: { type: 'text', text: `Hello ${args.name} (${args.style ?? 'casual'})` } }] };
    }
    if (promptName === 'pid_prompt')
      return { messages: [{ role: 'user', content: { type: 'text', text: `pid ${process.pid} name ${name}` } }] };
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${promptName}`);
  });

  server.setRequestHandler('resources/list', () => ({
    resources: [{ uri: infoUri, name: 'info', mimeType: 'text/plain' }],
    ...freshness(era),
  }));
  server.setRequestHandler('resources/templates/list', () => ({
    ...freshness(era),
    resourceTemplates: [{ uriTemplate: itemTemplate, name: 'item', mimeType: 'text/plain' }],
  }));
  server.setRequestHandler('resources/read', (request) => readResource(request.params.uri));
  if (era === 'legacy') {
    // 2025-era subscriptions; 2026-07-28 clients subscribe with subscriptions/listen at the entry.
    server.setRequestHandler('resources/subscribe', (request) => {
      instance.subscriptions.add(request.params.uri);
      return {};
    });
    server.setRequestHandler('resources/unsubscribe', (request) => {
      instance.subscriptions.delete(request.params.uri);
      return {};
    });
  }

  server.setRequestHandler('completion/complete', (request) => {
    const { ref, argument } = request.params;
    if (ref.type === 'ref/prompt' && ref.name === 'greet' && argument.name === 'style') return completeFrom(styles, argument.value);
    if (ref.type === 'ref/resource' && ref.uri === itemTemplate && argument.name === 'id') return completeFrom(itemIds, argument.value);
    return completeFrom([], '');
  });

  if (live) {
    liveInstances.add(instance);
    const previous = server.onclose;
    server.onclose = () => {
      liveInstances.delete(instance);
      previous?.();
    };
  }
  return server;
};

// ---------------------------------------------------------------------------------------------
// Serving
// ---------------------------------------------------------------------------------------------

const serveHttp = async () => {
  const modern =
    options.era === 'both'
      ? createMcpHandler(({ era }) => createInstance(era, false), {
          legacy: 'reject',
          onerror: (error) => log(`modern request failed: ${error.message}`),
        })
      : undefined;
  modernNotify = modern?.notify;

  let listens = 0;
  const reframe = listenFront(options.listen === 'none' ? 'none' : 'json-lines', modern, log);
  /** The misbehaving listen stream of `--listen`, or undefined to serve the request as usual. */
  const breakListen = async (request) => {
    if (request.method !== 'POST') return undefined;
    const body = await request
      .clone()
      .json()
      .catch(() => undefined);
    if (body?.method === 'server/discover') {
      log('server/discover received');
      if (options['silent-discover'])
        return new Response(new ReadableStream({ start: () => {} }), { status: 200, headers: { 'content-type': 'application/json' } });
    }
    if (body?.method !== 'subscriptions/listen') return undefined;
    listens += 1;
    log(`subscriptions/listen received (${listens})`);
    if (options.listen === 'ok' || (options.listen === 'drop-once' && listens > 1)) return undefined;
    if (options.listen === 'json-lines' || options.listen === 'none') return reframe(request);
    log(`subscriptions/listen broken on purpose (${options.listen})`);
    if (options.listen === 'drop-once') {
      // Pass the acknowledgement on, then end the stream as a proxy's idle timeout would.
      const reader = (await modern.fetch(request)).body.getReader();
      return new Response(
        new ReadableStream({
          pull: async (controller) => {
            const { value, done } = await reader.read();
            if (value !== undefined) controller.enqueue(value);
            if (done || new TextDecoder().decode(value).includes('acknowledged')) {
              await reader.cancel().catch(() => {});
              controller.close();
            }
          },
        }),
        { status: 200, headers: { 'content-type': 'text/event-stream' } },
      );
    }
    if (options.listen === 'error') return jsonRpcError(200, -32603, 'subscriptions/listen is broken on this server', body.id);
    return new Response(new ReadableStream({ start: () => {} }), { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };

  await serveBothEras({
    port: Number(options.port),
    log,
    sessionInstance: () => createInstance('legacy', true),
    modern,
    // Outside a session only initialize is served: this is what a 2025-only server answers to the
    // `server/discover` probe, and the client reads the 400 as "legacy".
    outsideSession: (body, request) => {
      const id = typeof body?.id === 'string' || typeof body?.id === 'number' ? body.id : null;
      return jsonRpcError(
        400,
        -32601,
        `Method not found: ${body?.method ?? request.method} (this server speaks 2025-11-25; send initialize)`,
        id,
      );
    },
    before: breakListen,
  });
};

if (options['never-answer']) {
  process.on('SIGTERM', () => log('SIGTERM ignored'));
  setInterval(() => {}, 1e9);
  log('never answering');
} else if (options.transport === 'stdio') {
  const serve = () => {
    const handle = serveStdio(({ era }) => createInstance(era, true), {
      onerror: (error) => log(`stdio transport error: ${error.message}`),
    });
    process.stdin.once('end', () => {
      handle.close().finally(() => process.exit(0));
    });
  };
  const delayMs = Number(options['handshake-delay-ms']);
  if (delayMs > 0) setTimeout(serve, delayMs);
  else serve();
} else {
  await serveHttp();
}
