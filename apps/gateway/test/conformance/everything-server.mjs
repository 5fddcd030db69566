#!/usr/bin/env node
/**
 * The conformance suite's "everything server", written for these tests on SDK v2: the tools,
 * prompts and resources the suite's server scenarios call (test_simple_text, test_sampling,
 * test_input_required_result_* …), served over Streamable HTTP on 127.0.0.1 at /mcp for both
 * revisions (2026-07-28 per request, 2025-era clients in sessions). Prints
 * `listening on http://127.0.0.1:<port>/mcp` on stderr.
 *
 * Requests to the client are written once, as `input_required` returns: a 2026-07-28 client answers
 * them and retries; on a 2025-era session the SDK's legacy shim sends them as real requests.
 *
 * `--listen sse|json-lines|none` frames the 2026-07-28 `subscriptions/listen` stream as the SDK does
 * (SSE), as newline-delimited JSON, or refuses it (no listen stream): see ../backends/listen-front.mjs.
 * `--loose` answers 2026-07-28 requests as the conformance repository's own reference server does
 * (results without `resultType`, a body of JSON lines, no `resources.subscribe` in `server/discover`):
 * see ../backends/loose-front.mjs.
 *
 *   node everything-server.mjs [--port 0] [--listen sse] [--loose]
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import {
  createMcpHandler,
  createRequestStateCodec,
  inputRequired,
  localhostAllowedHostnames,
  hostHeaderValidationResponse,
  ProtocolError,
  ProtocolErrorCode,
  Server,
} from '@modelcontextprotocol/server';
import { jsonRpcError, serveBothEras } from '../backends/http-fixture.mjs';
import { listenFront } from '../backends/listen-front.mjs';
import { looseFront } from '../backends/loose-front.mjs';

const { values: options } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    listen: { type: 'string', default: 'sse' },
    loose: { type: 'boolean', default: false },
  },
});
const log = (line) => process.stderr.write(`${line}\n`);

const image = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const audio = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';
const text = (value) => ({ content: [{ type: 'text', text: value }] });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const state = createRequestStateCodec({ key: randomBytes(32), ttlSeconds: 600 });

const form = (message, properties, required = Object.keys(properties)) =>
  inputRequired.elicit({ message, requestedSchema: { type: 'object', properties, required } });
const answer = (ctx, key) => {
  const value = ctx.mcpReq.inputResponses?.[key];
  return typeof value === 'object' && value !== null ? value : undefined;
};
const samplingText = (result) =>
  result?.content?.text ?? (Array.isArray(result?.content) ? result.content.find((block) => block.type === 'text')?.text : undefined);

const emptyInput = { type: 'object', properties: {} };
const tools = [
  { name: 'test_simple_text', run: () => text('This is a simple text response for testing.') },
  { name: 'test_image_content', run: () => ({ content: [{ type: 'image', data: image, mimeType: 'image/png' }] }) },
  { name: 'test_audio_content', run: () => ({ content: [{ type: 'audio', data: audio, mimeType: 'audio/wav' }] }) },
  {
    name: 'test_embedded_resource',
    run: () => ({
      content: [
        {
          type: 'resource',
          resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
        },
      ],
    }),
  },
  {
    name: 'test_multiple_content_types',
    run: () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: image, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  },
  {
    name: 'test_tool_with_logging',
    run: async (_args, ctx) => {
      for (const data of ['Tool execution started', 'Tool processing data', 'Tool execution completed']) {
        await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data } }).catch(() => {});
        await sleep(20);
      }
      return text('Tool with logging executed successfully');
    },
  },
  {
    name: 'test_tool_with_progress',
    run: async (_args, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken ?? 0;
      for (const progress of [0, 50, 100]) {
        await ctx.mcpReq
          .notify({
            method: 'notifications/progress',
            params: { progressToken, progress, total: 100, message: `Completed step ${progress} of 100` },
          })
          .catch(() => {});
        await sleep(20);
      }
      return text(String(progressToken));
    },
  },
  {
    name: 'test_error_handling',
    run: () => {
      throw new Error('This tool intentionally returns an error for testing');
    },
  },
  {
    name: 'test_sampling',
    inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
    run: (args, ctx) => {
      const result = answer(ctx, 'sample');
      if (result === undefined)
        return inputRequired({
          inputRequests: {
            sample: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }],
              maxTokens: 100,
            }),
          },
        });
      return text(`LLM response: ${samplingText(result) ?? 'No response'}`);
    },
  },
  {
    name: 'test_elicitation',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    run: (args, ctx) => {
      const result = answer(ctx, 'response');
      if (result === undefined) {
        const properties = {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        };
        return inputRequired({ inputRequests: { response: form(String(args.message), properties) } });
      }
      return text(`User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
    },
  },
  {
    name: 'test_elicitation_sep1034_defaults',
    run: (_args, ctx) => {
      const result = answer(ctx, 'defaults');
      if (result === undefined) {
        const properties = {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        };
        return inputRequired({
          inputRequests: { defaults: form('Please review and update the form fields with defaults', properties, []) },
        });
      }
      return text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
    },
  },
  {
    name: 'test_elicitation_sep1330_enums',
    run: (_args, ctx) => {
      const result = answer(ctx, 'enums');
      if (result === undefined) {
        const properties = {
          untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          titledSingle: {
            type: 'string',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
          untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
          titledMulti: {
            type: 'array',
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        };
        return inputRequired({ inputRequests: { enums: form('Please select options from the enum fields', properties, []) } });
      }
      return text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
    },
  },
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { $anchor: 'address', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      allOf: [{ anyOf: [{ required: ['name'] }, { required: ['address'] }] }],
      if: { properties: { name: { const: 'anonymous' } } },
      then: { properties: { address: false } },
      else: { properties: { address: true } },
      additionalProperties: false,
    },
    run: (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
  },
  // Diagnostics of the server-stateless scenario (2026-07-28).
  {
    name: 'test_missing_capability',
    run: () =>
      inputRequired({
        inputRequests: {
          ask: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'Needs sampling' } }],
            maxTokens: 10,
          }),
        },
      }),
  },
  {
    name: 'test_streaming_elicitation',
    run: () => inputRequired({ inputRequests: { ask: form('Streamed?', { ok: { type: 'boolean' } }) } }),
  },
  {
    name: 'test_logging_tool',
    run: async (_args, ctx) => {
      await ctx.mcpReq.log?.('info', 'test_logging_tool ran');
      return text('logged');
    },
  },
  {
    name: 'test_input_required_result_elicitation',
    run: (_args, ctx) => {
      const result = answer(ctx, 'user_name');
      if (result === undefined)
        return inputRequired({ inputRequests: { user_name: form('What is your name?', { name: { type: 'string' } }) } });
      return text(`Hello, ${result.content?.name ?? 'stranger'}!`);
    },
  },
  {
    name: 'test_input_required_result_sampling',
    run: (_args, ctx) => {
      const result = answer(ctx, 'capital_question');
      if (result === undefined) {
        return inputRequired({
          inputRequests: {
            capital_question: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
              maxTokens: 100,
            }),
          },
        });
      }
      return text(`Sampling response: ${samplingText(result) ?? ''}`);
    },
  },
  {
    name: 'test_input_required_result_list_roots',
    run: (_args, ctx) => {
      const result = answer(ctx, 'client_roots');
      if (!Array.isArray(result?.roots)) return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
      return text(`Roots: ${result.roots.map((root) => root.uri).join(', ')}`);
    },
  },
  {
    name: 'test_input_required_result_request_state',
    run: async (_args, ctx) => {
      const result = answer(ctx, 'confirm');
      const held = ctx.mcpReq.requestState();
      if (result === undefined || held?.step !== 'confirm') {
        return inputRequired({
          inputRequests: { confirm: form('Please confirm', { ok: { type: 'boolean' } }) },
          requestState: await state.mint({ step: 'confirm' }),
        });
      }
      return text(`state-ok: confirmed=${result.content?.ok === true}`);
    },
  },
  {
    name: 'test_input_required_result_multiple_inputs',
    run: async (_args, ctx) => {
      const name = answer(ctx, 'user_name');
      const greeting = answer(ctx, 'greeting');
      const roots = answer(ctx, 'client_roots');
      if (name === undefined || greeting === undefined || roots === undefined) {
        return inputRequired({
          inputRequests: {
            user_name: form('What is your name?', { name: { type: 'string' } }),
            greeting: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
              maxTokens: 50,
            }),
            client_roots: inputRequired.listRoots(),
          },
          requestState: await state.mint({ step: 'multiple' }),
        });
      }
      return text(`${samplingText(greeting) ?? 'Hello'}, ${name.content?.name ?? 'stranger'} (${(roots.roots ?? []).length} roots)`);
    },
  },
  {
    name: 'test_input_required_result_multi_round',
    run: async (_args, ctx) => {
      const held = ctx.mcpReq.requestState();
      const step1 = answer(ctx, 'step1');
      const step2 = answer(ctx, 'step2');
      if (held?.name !== undefined && step2 !== undefined) return text(`${held.name} likes ${step2.content?.color ?? 'no colour'}`);
      if (held?.name !== undefined || step1 !== undefined) {
        const name = held?.name ?? step1.content?.name ?? 'stranger';
        return inputRequired({
          inputRequests: { step2: form('Step 2: What is your favorite color?', { color: { type: 'string' } }) },
          requestState: await state.mint({ name }),
        });
      }
      return inputRequired({
        inputRequests: { step1: form('Step 1: What is your name?', { name: { type: 'string' } }) },
        requestState: await state.mint({ step: 1 }),
      });
    },
  },
  {
    name: 'test_input_required_result_tampered_state',
    run: async (_args, ctx) => {
      const held = ctx.mcpReq.requestState();
      if (held?.step === 'tamper' && answer(ctx, 'confirm') !== undefined) return text('state verified');
      return inputRequired({
        inputRequests: { confirm: form('Please confirm', { ok: { type: 'boolean' } }) },
        requestState: await state.mint({ step: 'tamper' }),
      });
    },
  },
  {
    name: 'test_input_required_result_capabilities',
    run: (_args, ctx) => {
      const capabilities = ctx.mcpReq.envelope?.['io.modelcontextprotocol/clientCapabilities'] ?? {};
      const requests = {
        ...(capabilities.elicitation === undefined ? {} : { ask: form('What is your name?', { name: { type: 'string' } }) }),
        ...(capabilities.sampling === undefined
          ? {}
          : {
              sample: inputRequired.createMessage({
                messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
                maxTokens: 20,
              }),
            }),
      };
      if (Object.keys(requests).some((key) => answer(ctx, key) === undefined)) return inputRequired({ inputRequests: requests });
      return text('capabilities respected');
    },
  },
];
const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));

const prompts = {
  test_simple_prompt: {
    arguments: [],
    get: () => [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  },
  test_prompt_with_arguments: {
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    get: (args) => [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` } }],
  },
  test_prompt_with_embedded_resource: {
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    get: (args) => [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  },
  test_prompt_with_image: {
    arguments: [],
    get: () => [
      { role: 'user', content: { type: 'image', data: image, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  },
};

const resources = [
  {
    uri: 'test://static-text',
    name: 'static-text',
    mimeType: 'text/plain',
    read: (uri) => ({ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }),
  },
  {
    uri: 'test://static-binary',
    name: 'static-binary',
    mimeType: 'image/png',
    read: (uri) => ({ uri, mimeType: 'image/png', blob: image }),
  },
  {
    uri: 'test://watched-resource',
    name: 'watched-resource',
    mimeType: 'text/plain',
    read: (uri) => ({ uri, mimeType: 'text/plain', text: 'Watched resource content' }),
  },
];

const createInstance = () => {
  const server = new Server(
    { name: 'promptyard-conformance-everything', version: '1.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        completions: {},
        logging: {},
      },
      requestState: { verify: state.verify },
    },
  );
  server.setRequestHandler('tools/list', () => ({
    tools: tools.map(({ name, description, inputSchema }) => ({
      name,
      description: description ?? `Conformance fixture ${name}`,
      inputSchema: inputSchema ?? emptyInput,
    })),
  }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const tool = toolsByName.get(request.params.name);
    if (tool === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    try {
      return await tool.run(request.params.arguments ?? {}, ctx);
    } catch (error) {
      return { content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }], isError: true };
    }
  });
  server.setRequestHandler('prompts/list', () => ({
    prompts: [
      ...Object.entries(prompts).map(([name, prompt]) => ({
        name,
        description: `Conformance fixture ${name}`,
        arguments: prompt.arguments,
      })),
      { name: 'test_input_required_result_prompt', description: 'Asks for context first' },
    ],
  }));
  server.setRequestHandler('prompts/get', (request, ctx) => {
    const { name, arguments: args = {} } = request.params;
    if (name === 'test_input_required_result_prompt') {
      const result = answer(ctx, 'user_context');
      if (result === undefined)
        return inputRequired({
          inputRequests: { user_context: form('What context should the prompt use?', { context: { type: 'string' } }) },
        });
      return { messages: [{ role: 'user', content: { type: 'text', text: `Context: ${result.content?.context ?? ''}` } }] };
    }
    const prompt = prompts[name];
    if (prompt === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    return { messages: prompt.get(args) };
  });
  server.setRequestHandler('resources/list', () => ({ resources: resources.map(({ uri, name, mimeType }) => ({ uri, name, mimeType })) }));
  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: [{ uriTemplate: 'test://template/{id}/data', name: 'template', mimeType: 'application/json' }],
  }));
  server.setRequestHandler('resources/read', (request) => {
    const { uri } = request.params;
    const fixed = resources.find((resource) => resource.uri === uri);
    if (fixed !== undefined) return { contents: [fixed.read(uri)] };
    const templated = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
    if (templated !== null)
      return {
        contents: [
          {
            uri,
            mimeType: 'application/json',
            text: JSON.stringify({ id: templated[1], templateTest: true, data: `Data for ID: ${templated[1]}` }),
          },
        ],
      };
    throw new ProtocolError(ProtocolErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
  });
  server.setRequestHandler('resources/subscribe', () => ({}));
  server.setRequestHandler('resources/unsubscribe', () => ({}));
  server.setRequestHandler('completion/complete', (request) => {
    const values =
      request.params.argument.name === 'arg1'
        ? ['paris', 'park', 'party'].filter((value) => value.startsWith(request.params.argument.value))
        : [];
    return { completion: { values, total: values.length, hasMore: false } };
  });
  return server;
};

const modern = createMcpHandler(() => createInstance(), {
  legacy: 'reject',
  onerror: (error) => log(`modern request failed: ${error.message}`),
});
const allowedHosts = localhostAllowedHostnames();
const listen = listenFront(options.listen, modern, log);
const loose = looseFront(options.loose, modern);
await serveBothEras({
  port: Number(options.port),
  log,
  sessionInstance: () => createInstance(),
  modern,
  outsideSession: () => jsonRpcError(400, -32000, 'Bad Request: start a session with initialize'),
  before: async (request) => hostHeaderValidationResponse(request, allowedHosts) ?? (await listen(request)) ?? loose(request),
});
