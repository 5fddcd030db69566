import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeError, formatList, isPromptyardError, isValidToolName, PromptyardError } from '@promptyard/core';
import type {
  Logger,
  PromptSource,
  ProviderContext,
  ProviderModule,
  ResourceProvider,
  TemplateEngine,
  ToolProvider,
} from '@promptyard/core';
import type { ResolvedConfig } from './config.js';

/** What a provider package can add; `[[providers]] kinds` picks some (default: every kind it exports). */
const providerKinds = ['resources', 'tools', 'prompts'] as const;
export type ProviderKind = (typeof providerKinds)[number];

export interface ProviderPackage {
  readonly name: string;
  /** `name #n` (n = its place under [[providers]]): one package may be listed twice with other options. */
  readonly label: string;
  readonly resources?: ResourceProvider;
  readonly tools?: ToolProvider;
  readonly prompts?: PromptSource;
}

const factoryNames: Readonly<Record<ProviderKind, readonly (keyof ProviderModule | 'default')[]>> = {
  // `createProvider` (and a default export) were the first names of the resource factory.
  resources: ['createResourceProvider', 'createProvider', 'default'],
  tools: ['createToolProvider'],
  prompts: ['createPromptSource'],
};

const isFunction = (value: unknown): value is (...args: never[]) => unknown => typeof value === 'function';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The shape each factory must return, checked once at start-up so a broken package fails with its name. */
const problemsOf: Readonly<Record<ProviderKind, (value: unknown) => string | undefined>> = {
  resources: (value) =>
    isObject(value) &&
    typeof value['scheme'] === 'string' &&
    isFunction(value['list']) &&
    isFunction(value['templates']) &&
    isFunction(value['read'])
      ? undefined
      : 'createResourceProvider returned something that is not a ResourceProvider (scheme, list, templates, read)',
  tools: (value) => {
    if (!isObject(value) || !Array.isArray(value['tools']))
      return 'createToolProvider returned something that is not a ToolProvider (an object with a tools array)';
    for (const tool of value['tools'] as unknown[]) {
      const name = isObject(tool) ? tool['name'] : undefined;
      if (!isObject(tool) || typeof name !== 'string' || !isValidToolName(name))
        return `a tool's name must be 1 to 128 letters, digits, "_", "-" or ".", got ${JSON.stringify(name)}`;
      if (typeof tool['description'] !== 'string' || !isFunction(tool['execute']))
        return `tool "${name}" needs a description and an execute function`;
      const schema = tool['inputSchema'];
      if (!isObject(schema) || schema['type'] !== 'object' || !isObject(schema['properties']))
        return `tool "${name}" needs an inputSchema of type "object" with properties`;
    }
    return undefined;
  },
  prompts: (value) =>
    isObject(value) && typeof value['id'] === 'string' && isFunction(value['load'])
      ? undefined
      : 'createPromptSource returned something that is not a PromptSource (id, load)',
};

const invalid = (name: string, message: string, cause?: unknown): PromptyardError =>
  new PromptyardError('CONFIG_INVALID', `Provider package "${name}" ${message}.`, cause === undefined ? {} : { cause });

/**
 * `[[providers]]`: packages resolved from the config file's folder, like its own dependencies (a
 * provider may have its own copy of `@promptyard/core`: errors are recognised by brand). Each factory
 * the package exports is called with the entry's options and a context.
 */
export const loadProviders = async (
  resolved: ResolvedConfig,
  context: { readonly logger: Logger; readonly engines: Readonly<Record<string, TemplateEngine>> },
  only: readonly ProviderKind[] = providerKinds,
): Promise<ProviderPackage[]> => {
  const base = resolved.file ?? join(resolved.cwd, 'promptyard.toml');
  const require = createRequire(base);
  return Promise.all(
    resolved.config['providers[]'].map(async (entry, index): Promise<ProviderPackage> => {
      const name = entry.package;
      if (name === undefined)
        throw new PromptyardError('CONFIG_INVALID', `[[providers]] #${index + 1} needs package = "<npm package name>".`);
      const unknownKinds = (entry.kinds ?? []).filter((kind) => !(providerKinds as readonly string[]).includes(kind));
      if (unknownKinds.length > 0)
        throw invalid(name, `has unknown kinds ${formatList(unknownKinds)} in [[providers]]; kinds takes ${formatList(providerKinds)}`);
      let path: string;
      try {
        path = require.resolve(name);
      } catch (error) {
        throw invalid(
          name,
          `is not installed where ${dirname(base)} can find it: run \`npm install ${name}\` there, or fix [[providers]] package`,
          error,
        );
      }
      const module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
      const wanted = providerKinds.filter((kind) => only.includes(kind) && (entry.kinds === undefined || entry.kinds.includes(kind)));
      const exported = providerKinds.filter((kind) => factoryNames[kind].some((key) => isFunction(module[key])));
      if (exported.length === 0) {
        throw invalid(
          name,
          'exports none of createResourceProvider, createToolProvider, createPromptSource (see ProviderModule in @promptyard/core)',
        );
      }
      const missing = (entry.kinds ?? []).filter((kind) => !(exported as string[]).includes(kind));
      if (missing.length > 0)
        throw invalid(
          name,
          `does not export the ${formatList(missing, 'and')} that [[providers]] kinds asks for (it exports ${formatList(exported, 'and')})`,
        );
      const providerContext: ProviderContext = { logger: context.logger.child(name), baseDir: dirname(base), engines: context.engines };
      const loaded: { -readonly [K in ProviderKind]?: unknown } = {};
      for (const kind of wanted.filter((candidate) => exported.includes(candidate))) {
        const factory = factoryNames[kind].map((key) => module[key]).find(isFunction) as (
          options: unknown,
          context: ProviderContext,
        ) => unknown;
        let value: unknown;
        try {
          value = await factory(entry.options, providerContext);
        } catch (error) {
          throw invalid(name, `failed to create its ${kind}: ${isPromptyardError(error) ? error.message : describeError(error)}`, error);
        }
        const problem = problemsOf[kind](value);
        if (problem !== undefined) throw invalid(name, `is not a valid provider: ${problem}`);
        loaded[kind] = value;
      }
      return { name, label: `${name} #${index + 1}`, ...(loaded as Omit<ProviderPackage, 'name' | 'label'>) };
    }),
  );
};

/** The prompt sources of loaded packages, named for the catalog's clash reports. */
export const promptSourcesOf = (packages: readonly ProviderPackage[]): { readonly name: string; readonly source: PromptSource }[] =>
  packages.flatMap((loaded) => (loaded.prompts === undefined ? [] : [{ name: loaded.label, source: loaded.prompts }]));
