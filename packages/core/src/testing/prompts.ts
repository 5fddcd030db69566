import assert from 'node:assert/strict';
import { createCatalog } from '../catalog/catalog.js';
import { createLogger } from '../logging/logger.js';
import { createPromptService } from '../prompts/prompt-service.js';
import type { PromptService } from '../prompts/prompt-service.js';
import type { PromptSource } from '../contracts/prompt-sources.js';
import type { ProviderContext } from '../contracts/providers.js';
import type { PromptEntry, RenderedPrompt } from '../contracts/types.js';
import type { ContractCheck, TextExpectation } from './checks.js';
import { createTestContext, expectPromptyardError, expectText, thrownBy } from './checks.js';

export interface PromptSourceContractOptions {
  /** Makes the source under test; called once per check. */
  create(context: ProviderContext): PromptSource | Promise<PromptSource>;
  readonly context?: ProviderContext;
  /** Prompts that must load and render to the given text (all messages' text, joined by blank lines). */
  readonly renders: readonly {
    readonly name: string;
    readonly arguments?: Readonly<Record<string, string>>;
    readonly text: TextExpectation;
  }[];
  /** Prompts with a required argument: rendering them without arguments must fail with MISSING_ARGUMENTS. */
  readonly requireArguments?: readonly string[];
  /** Argument completions through the server's prompt service (enum, default, values seen before). */
  readonly completions?: readonly {
    readonly name: string;
    readonly argument: string;
    readonly value: string;
    readonly expected: readonly string[];
  }[];
}

const namePattern = /^[^\s\p{Cc}]{1,200}$/u;

const textOf = (messages: RenderedPrompt['messages']): string =>
  messages
    .map((message) =>
      message.content.type === 'text'
        ? message.content.text
        : message.content.type === 'resource' && 'text' in message.content.resource
          ? message.content.resource.text
          : '',
    )
    .join('\n\n');

/** The source's prompts behind the same service promptyard-server renders them through. */
const serve = async (
  options: PromptSourceContractOptions,
): Promise<{ readonly source: PromptSource; readonly entries: readonly PromptEntry[]; readonly service: PromptService }> => {
  const source = await options.create(options.context ?? createTestContext());
  const entries = await source.load();
  const catalog = createCatalog<PromptEntry>({ kind: 'prompt' });
  catalog.owner(source.id).replace(entries);
  const service = createPromptService({
    catalog,
    logger: createLogger({ level: 'error', write: () => {} }),
    limits: { maxArgumentChars: 10_000, maxResponseBytes: 1_048_576 },
    timeoutMs: 5000,
  });
  return { source, entries, service };
};

/** Names unique and well-formed, a description and an origin, arguments unique and well-formed. */
const checkEntry = (entry: PromptEntry, names: Set<string>): void => {
  assert.match(
    entry.name,
    namePattern,
    `prompt name ${JSON.stringify(entry.name)}: no spaces or control characters, at most 200 characters`,
  );
  assert.ok(!names.has(entry.name), `prompt "${entry.name}" is loaded twice`);
  names.add(entry.name);
  assert.equal(typeof entry.description, 'string', `prompt "${entry.name}" needs a description (may be derived from its text)`);
  assert.equal(typeof entry.origin.file, 'string', `prompt "${entry.name}" needs an origin for error messages`);
  const argumentNames = new Set<string>();
  for (const argument of entry.arguments) {
    assert.ok(
      argument.name !== '' && !argumentNames.has(argument.name),
      `prompt "${entry.name}": argument names must be unique and non-empty`,
    );
    argumentNames.add(argument.name);
    assert.equal(typeof argument.required, 'boolean', `prompt "${entry.name}" argument "${argument.name}": required must be true or false`);
  }
};

const checkLoads = async (options: PromptSourceContractOptions): Promise<void> => {
  const { source, entries } = await serve(options);
  assert.ok(typeof source.id === 'string' && source.id !== '', 'a prompt source needs an id (what it reads)');
  assert.ok(entries.length > 0, 'the source loaded no prompts');
  const names = new Set<string>();
  for (const entry of entries) checkEntry(entry, names);
  const again = await source.load();
  assert.deepEqual(again.map((entry) => entry.name).sort(), [...names].sort(), 'loading twice should give the same prompts');
  await source.close?.();
};

const checkRenders = async (options: PromptSourceContractOptions): Promise<void> => {
  assert.ok(options.renders.length > 0, 'give at least one prompt to render');
  const { source, service } = await serve(options);
  for (const render of options.renders) {
    const rendered = await service.get(render.name, render.arguments ?? {});
    assert.ok(rendered.messages.length > 0, `prompt "${render.name}" rendered no messages`);
    expectText(textOf(rendered.messages), render.text, `prompt "${render.name}"`);
  }
  expectPromptyardError(
    await thrownBy(() => service.get('no-such-prompt-here', {}), 'an unknown prompt'),
    'PROMPT_NOT_FOUND',
    'an unknown prompt',
  );
  await source.close?.();
};

const checkWatchAndClose = async (options: PromptSourceContractOptions): Promise<void> => {
  const source = await options.create(options.context ?? createTestContext());
  await source.load();
  await source.watch?.(() => {});
  await source.close?.();
};

const checkRequiredArguments = async (options: PromptSourceContractOptions, requireArguments: readonly string[]): Promise<void> => {
  const { source, service } = await serve(options);
  for (const name of requireArguments)
    expectPromptyardError(
      await thrownBy(() => service.get(name, {}), `prompt "${name}" without arguments`),
      'MISSING_ARGUMENTS',
      `prompt "${name}" without arguments`,
    );
  await source.close?.();
};

const checkCompletions = async (
  options: PromptSourceContractOptions,
  completions: NonNullable<PromptSourceContractOptions['completions']>,
): Promise<void> => {
  const { source, service } = await serve(options);
  for (const completion of completions) {
    assert.deepEqual(
      [...service.complete(completion.name, completion.argument, completion.value).values],
      [...completion.expected],
      `completion of ${completion.name} ${completion.argument}="${completion.value}"`,
    );
  }
  await source.close?.();
};

/**
 * The checks a prompt source passes to behave in promptyard-server as its own folders do: valid,
 * unique names and arguments, rendering, required arguments, completion, and a clean close.
 */
export const promptSourceContract = (options: PromptSourceContractOptions): ContractCheck[] => {
  const checks: ContractCheck[] = [
    { name: 'loads prompts with unique names, descriptions and well-formed arguments', run: () => checkLoads(options) },
    { name: 'renders prompts with their arguments', run: () => checkRenders(options) },
    { name: 'watches for changes (when it can) and closes cleanly', run: () => checkWatchAndClose(options) },
  ];
  const { requireArguments, completions } = options;
  if (requireArguments !== undefined) {
    checks.push({
      name: 'refuses to render a prompt without its required arguments',
      run: () => checkRequiredArguments(options, requireArguments),
    });
  }
  if (completions !== undefined) checks.push({ name: 'completes argument values', run: () => checkCompletions(options, completions) });
  return checks;
};
