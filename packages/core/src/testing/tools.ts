import assert from 'node:assert/strict';
import { createCatalog } from '../catalog/catalog.js';
import type { ProviderContext } from '../contracts/providers.js';
import { createToolService } from '../tools/tool-service.js';
import type { ToolService } from '../tools/tool-service.js';
import { isValidToolName } from '../contracts/tools.js';
import type { ToolDefinition, ToolProvider } from '../contracts/tools.js';
import type { ContractCheck, TextExpectation } from './checks.js';
import { createTestContext, expectPromptyardError, expectText, settlesWithin, thrownBy } from './checks.js';

interface ToolCall {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

export interface ToolProviderContractOptions {
  /** Makes the provider under test; called once per check. */
  create(context: ProviderContext): ToolProvider | Promise<ToolProvider>;
  readonly context?: ProviderContext;
  /** Calls that succeed, with the text their result must have when given. */
  readonly calls: readonly (ToolCall & { readonly text?: TextExpectation })[];
  /** Calls with bad input: each must come back as an `isError` result whose text says what is wrong. */
  readonly invalid: readonly (ToolCall & { readonly text?: TextExpectation })[];
  /** A call that takes long enough to cancel in flight (a fake that answers slowly). */
  readonly slow?: ToolCall;
  /** How soon a cancelled call must settle; 1000 ms by default. */
  readonly cancelWithinMs?: number;
  /** The server's `[timeouts] tool_ms` for the calls; 30 s by default. */
  readonly timeoutMs?: number;
}

const textOf = (result: { readonly content: readonly { readonly text: string }[] }): string =>
  result.content.map((item) => item.text).join('\n');

/** The tools behind the same service promptyard-server calls them through: validation, deadline, size cap. */
const serve = async (
  options: ToolProviderContractOptions,
): Promise<{ readonly tools: readonly ToolDefinition[]; readonly service: ToolService }> => {
  const context = options.context ?? createTestContext();
  const provider = await options.create(context);
  const catalog = createCatalog<ToolDefinition>({ kind: 'tool' });
  catalog.owner('provider').replace(provider.tools);
  return {
    tools: provider.tools,
    service: createToolService({ catalog, logger: context.logger, timeoutMs: options.timeoutMs ?? 30_000, maxResponseBytes: 1_048_576 }),
  };
};

/**
 * The checks a tool provider passes to behave in promptyard-server as the built-in tools do: valid
 * definitions, results, bad input as `isError` results a model can act on, unknown names as
 * TOOL_NOT_FOUND, and cancellation.
 */
export const toolProviderContract = (options: ToolProviderContractOptions): ContractCheck[] => [
  {
    name: 'defines tools with valid names, descriptions and input schemas',
    run: async () => {
      const { tools } = await serve(options);
      assert.ok(tools.length > 0, 'the provider defines no tools');
      const names = new Set<string>();
      for (const tool of tools) {
        assert.ok(isValidToolName(tool.name), `tool name "${tool.name}": 1 to 128 letters, digits, "_", "-" or "."`);
        assert.ok(!names.has(tool.name), `tool "${tool.name}" is defined twice`);
        names.add(tool.name);
        assert.ok(tool.description.trim() !== '', `tool "${tool.name}" needs a description: it is how a model chooses it`);
        assert.equal(tool.inputSchema.type, 'object', `tool "${tool.name}": inputSchema.type must be "object"`);
        assert.equal(tool.inputSchema.additionalProperties, false, `tool "${tool.name}": inputSchema.additionalProperties must be false`);
        for (const required of tool.inputSchema.required ?? [])
          assert.ok(required in tool.inputSchema.properties, `tool "${tool.name}": required "${required}" is not a property`);
      }
    },
  },
  {
    name: 'returns results for valid calls',
    run: async () => {
      assert.ok(options.calls.length > 0, 'give at least one call that succeeds');
      const { service } = await serve(options);
      for (const call of options.calls) {
        const result = await service.call(call.name, call.arguments, new AbortController().signal);
        assert.notEqual(result.isError, true, `${call.name}(${JSON.stringify(call.arguments)}) failed: ${textOf(result)}`);
        assert.ok(result.content.length > 0, `${call.name} returned no content`);
        if (call.text !== undefined) expectText(textOf(result), call.text, call.name);
      }
    },
  },
  {
    name: 'answers bad input with an isError result that says what is wrong',
    run: async () => {
      assert.ok(options.invalid.length > 0, 'give at least one call with bad input');
      const { service } = await serve(options);
      for (const call of options.invalid) {
        const result = await service.call(call.name, call.arguments, new AbortController().signal);
        assert.equal(
          result.isError,
          true,
          `${call.name}(${JSON.stringify(call.arguments)}) should be an isError result, got: ${textOf(result)}`,
        );
        assert.ok(textOf(result).trim().length >= 10, `${call.name}: the error text should tell the model what to change`);
        if (call.text !== undefined) expectText(textOf(result), call.text, call.name);
      }
    },
  },
  {
    name: 'answers an unknown tool name with TOOL_NOT_FOUND',
    run: async () => {
      const { service } = await serve(options);
      expectPromptyardError(
        await thrownBy(() => service.call('no_such_tool_here', {}), 'calling an unknown tool'),
        'TOOL_NOT_FOUND',
        'calling an unknown tool',
      );
    },
  },
  {
    name: 'stops a call when the client cancels it',
    run: async () => {
      const { service } = await serve(options);
      const call = options.slow ?? options.calls[0];
      assert.ok(call !== undefined, 'give a call to cancel');
      const controller = new AbortController();
      const calling = service.call(call.name, call.arguments, controller.signal);
      controller.abort(new Error('cancelled by the contract test'));
      await settlesWithin(calling, options.cancelWithinMs ?? 1000, `${call.name}`);
      if (options.slow !== undefined) {
        const result = await calling;
        assert.equal(result.isError, true, `a cancelled ${call.name} should end as an isError result`);
      }
    },
  },
];
