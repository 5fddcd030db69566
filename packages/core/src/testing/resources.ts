import assert from 'node:assert/strict';
import type { ProviderContext } from '../contracts/providers.js';
import type { ResourceContents, ResourceProvider } from '../contracts/resources.js';
import type { ContractCheck, TextExpectation } from './checks.js';
import { createTestContext, expectPromptyardError, expectText, settlesWithin, thrownBy } from './checks.js';

export interface ResourceProviderContractOptions {
  /** Makes the provider under test; called once per check. */
  create(context: ProviderContext): ResourceProvider | Promise<ResourceProvider>;
  /** The context `create` gets; `createTestContext()` by default. */
  readonly context?: ProviderContext;
  /** URIs that read (besides what `list()` returns), with the text they must have when given. */
  readonly readable: readonly (string | { readonly uri: string; readonly text?: TextExpectation; readonly mimeType?: string })[];
  /** URIs of the provider's scheme that do not exist: reading them must fail with RESOURCE_NOT_FOUND. */
  readonly missing: readonly string[];
  /** A URI whose read takes long enough to cancel in flight (a fake that answers slowly). */
  readonly slow?: string;
  /** Template completions: `complete(uriTemplate, variable, value)` must return `expected`. */
  readonly completions?: readonly {
    readonly uriTemplate: string;
    readonly variable: string;
    readonly value: string;
    readonly expected: readonly string[];
  }[];
  /** How soon a cancelled read must settle; 1000 ms by default. */
  readonly cancelWithinMs?: number;
}

const schemePattern = /^[a-z][a-z0-9+.-]*$/;

const checkContents = (contents: readonly ResourceContents[], uri: string): void => {
  assert.ok(Array.isArray(contents) && contents.length > 0, `read("${uri}") should return at least one content item`);
  for (const item of contents) {
    assert.equal(typeof item.uri, 'string', `read("${uri}"): every content item needs a uri`);
    const text = 'text' in item && typeof item.text === 'string';
    const blob = 'blob' in item && typeof item.blob === 'string';
    assert.ok(text !== blob, `read("${uri}"): a content item has either text or a base64 blob`);
  }
};

type Fixture = { readonly uri: string; readonly text?: TextExpectation; readonly mimeType?: string };

const make = async (options: ResourceProviderContractOptions): Promise<ResourceProvider> =>
  options.create(options.context ?? createTestContext());

const checkScheme = async (options: ResourceProviderContractOptions, fixtures: readonly Fixture[]): Promise<void> => {
  const provider = await make(options);
  assert.match(provider.scheme, schemePattern, 'scheme: lowercase letters, digits, "+", "-" or "." (RFC 3986), without "://"');
  for (const resource of provider.list()) {
    assert.ok(resource.uri.startsWith(`${provider.scheme}:`), `listed resource ${resource.uri} is not of the scheme ${provider.scheme}:`);
    assert.ok(typeof resource.name === 'string' && resource.name !== '', `listed resource ${resource.uri} needs a name`);
  }
  for (const template of provider.templates()) {
    assert.ok(
      template.uriTemplate.startsWith(`${provider.scheme}:`),
      `template ${template.uriTemplate} is not of the scheme ${provider.scheme}:`,
    );
    assert.ok(typeof template.name === 'string' && template.name !== '', `template ${template.uriTemplate} needs a name`);
  }
  for (const { uri } of fixtures)
    assert.ok(uri.startsWith(`${provider.scheme}:`), `fixture ${uri} is not of the scheme ${provider.scheme}:`);
};

const checkReads = async (options: ResourceProviderContractOptions, fixtures: readonly Fixture[]): Promise<void> => {
  const provider = await make(options);
  // Listed resources may live elsewhere (a web page, a library's docs): without fixtures, the first is read.
  const first = provider.list()[0];
  const targets = fixtures.length > 0 ? fixtures : first === undefined ? [] : [{ uri: first.uri }];
  assert.ok(targets.length > 0, 'give at least one readable URI, or list one');
  for (const fixture of targets) {
    const contents = await provider.read(fixture.uri, new AbortController().signal);
    checkContents(contents, fixture.uri);
    const [first] = contents;
    if ('text' in fixture && fixture.text !== undefined)
      expectText(first !== undefined && 'text' in first ? first.text : '', fixture.text, `read("${fixture.uri}")`);
    if ('mimeType' in fixture && fixture.mimeType !== undefined)
      assert.equal(first?.mimeType, fixture.mimeType, `read("${fixture.uri}"): mimeType`);
  }
};

const checkMissing = async (options: ResourceProviderContractOptions): Promise<void> => {
  assert.ok(options.missing.length > 0, 'give at least one missing URI');
  const provider = await make(options);
  for (const uri of options.missing)
    expectPromptyardError(
      await thrownBy(() => provider.read(uri, new AbortController().signal), `read("${uri}")`),
      'RESOURCE_NOT_FOUND',
      `read("${uri}")`,
    );
};

const checkCancel = async (options: ResourceProviderContractOptions, fixtures: readonly Fixture[]): Promise<void> => {
  const provider = await make(options);
  const uri = options.slow ?? fixtures[0]?.uri ?? provider.list()[0]?.uri;
  assert.ok(uri !== undefined, 'give a readable or slow URI to cancel');
  const controller = new AbortController();
  const reading = provider.read(uri, controller.signal);
  controller.abort(new Error('cancelled by the contract test'));
  await settlesWithin(reading, options.cancelWithinMs ?? 1000, `read("${uri}")`);
  if (options.slow !== undefined) await thrownBy(() => reading, `a cancelled read of ${uri}`);
};

const checkCompletions = async (
  options: ResourceProviderContractOptions,
  completions: NonNullable<ResourceProviderContractOptions['completions']>,
): Promise<void> => {
  const provider = await make(options);
  assert.ok(provider.complete !== undefined, 'completion fixtures given, but the provider has no complete()');
  for (const completion of completions) {
    const values = await provider.complete(completion.uriTemplate, completion.variable, completion.value);
    assert.deepEqual(
      [...values],
      [...completion.expected],
      `complete("${completion.uriTemplate}", "${completion.variable}", "${completion.value}")`,
    );
  }
};

/**
 * The checks a resource provider passes to behave in promptyard-server as the built-in ones do:
 * listing, reading, not-found errors the client sees as invalid params, cancellation, completion.
 */
export const resourceProviderContract = (options: ResourceProviderContractOptions): ContractCheck[] => {
  const fixtures = options.readable.map((fixture) => (typeof fixture === 'string' ? { uri: fixture } : fixture));
  const checks: ContractCheck[] = [
    { name: 'declares a scheme, and lists resources and templates of that scheme', run: () => checkScheme(options, fixtures) },
    { name: 'reads resources: text or a base64 blob, with the expected content', run: () => checkReads(options, fixtures) },
    { name: 'answers a missing resource with RESOURCE_NOT_FOUND (invalid params for the client)', run: () => checkMissing(options) },
    { name: 'stops reading when the request is cancelled', run: () => checkCancel(options, fixtures) },
  ];
  const { completions } = options;
  if (completions !== undefined) checks.push({ name: 'completes template variables', run: () => checkCompletions(options, completions) });
  return checks;
};
