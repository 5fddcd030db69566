/**
 * Mustache, as Prompty's TypeScript runtime renders it: `Mustache.render(template, inputs)` of the
 * npm `mustache` 4.2 library (microsoft/prompty runtime/typescript/packages/core/src/renderers/mustache.ts
 * at 75e4d0e5), so `{{x}}` is HTML-escaped and `{{{x}}}` / `{{& x}}` are not, and a partial
 * (`{{> name}}`) renders as empty text, since Prompty passes no partials. Variables come from
 * Mustache's parse tree; a render is bounded in time and output size like the Jinja engine's.
 */
import { createRequire } from 'node:module';
import { describeError } from '@promptyard/core';
import type { CompileOptions, CompiledTemplate, TemplateEngine, PromptyardError } from '@promptyard/core';
import type Mustache from 'mustache';
import type { TemplateSpans } from 'mustache';
import { templateEngine } from './template-engine.js';
import { templateError } from './template-error.js';

export interface MustacheEngineOptions {
  /** Wall-clock budget of one render, checked as sections repeat. Default 5000. */
  readonly renderLimitMs?: number;
  /** Characters the output (and any section's output) may have. Default 1,000,000. */
  readonly outputLimit?: number;
  /** Characters one parse may read. Default 1,000,000. */
  readonly parseLimit?: number;
}

type MustacheModule = typeof Mustache;
type Token = TemplateSpans[number];

// Loaded on the first compile: a library without Mustache templates never pays for it.
const require = createRequire(import.meta.url);
let mustacheModule: MustacheModule | undefined;
const loadMustache = (): MustacheModule => {
  if (mustacheModule !== undefined) return mustacheModule;
  // Node's require gives the CommonJS build; a bundle may give the ES module's namespace, whose default it is.
  const loaded = require('mustache') as { readonly Writer?: unknown; readonly default?: unknown };
  mustacheModule = (loaded.Writer === undefined ? loaded.default : loaded) as MustacheModule;
  return mustacheModule;
};

/** How many section renders pass between two looks at the clock. */
const clockEvery = 64;

/** A limit hit while rendering; its message is the whole story. */
class LimitError extends Error {}

interface Budget {
  readonly deadline: number;
  readonly renderLimitMs: number;
  readonly outputLimit: number;
}

/** A Writer without its template cache: a compile parses once and keeps its tokens; the cache would only grow. */
const uncachedWriter = (mustache: MustacheModule) => {
  const writer = new mustache.Writer();
  (writer as { templateCache?: unknown }).templateCache = undefined;
  return writer;
};

/** mustache's Writer, counting the token lists it renders: each section pass looks at the clock and the size. */
const boundedWriter = (mustache: MustacheModule, budget: Budget) => {
  const writer = uncachedWriter(mustache);
  let passes = 0;
  const renderTokens = writer.renderTokens.bind(writer);
  writer.renderTokens = (tokens, context, partials, originalTemplate, config) => {
    passes += 1;
    if (passes % clockEvery === 0 && Date.now() > budget.deadline)
      throw new LimitError(`rendering took longer than ${budget.renderLimitMs} ms ([timeouts] prompt_ms): loop over fewer items`);
    const text = renderTokens(tokens, context, partials, originalTemplate, config);
    if (text.length > budget.outputLimit) throw new LimitError(`the text grows past ${budget.outputLimit} characters: render less`);
    return text;
  };
  return writer;
};

/** The top-level names a template reads: outside sections, section names, and inside inverted sections. */
const readVariables = (tokens: TemplateSpans, names: Set<string>): void => {
  for (const token of tokens) {
    const [type, value] = token;
    if (type !== 'name' && type !== '&' && type !== '#' && type !== '^') continue;
    const head = value.split('.')[0] ?? '';
    if (head !== '') names.add(head);
    // A `#` section pushes its value as the context: the names inside may be the items' fields, so
    // only names outside such sections are arguments. An inverted section renders in the outer context.
    if (type === '^') readVariables(sectionTokens(token), names);
  }
};

const sectionTokens = (token: Token): TemplateSpans => (Array.isArray(token[4]) ? token[4] : []);

/** A typed argument's value; text that is not JSON is kept as it was given. */
const parseJson = (value: string): unknown => {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
};

/**
 * The 1-based line of a syntax error: mustache says `at 123` (for an unclosed section, the end of
 * the template), so an unclosed section is looked for where it opens.
 */
const syntaxErrorLine = (source: string, error: unknown): number | undefined => {
  const message = describeError(error);
  const unclosed = /^Unclosed section "([^"]*)"/.exec(message)?.[1];
  const lines = source.split('\n');
  if (unclosed !== undefined) {
    const opening = new RegExp(`\\{\\{\\s*[#^]\\s*${escapeRegExp(unclosed)}\\s*\\}\\}`);
    const index = lines.findLastIndex((line) => opening.test(line));
    if (index !== -1) return index + 1;
  }
  const at = /\bat (\d+)\s*$/.exec(message)?.[1];
  return at === undefined ? undefined : source.slice(0, Number(at)).split('\n').length;
};

/**
 * `{{name}}`, `{{{raw}}}`, `{{#section}}`, `{{^inverted}}`, comments and `{{=<% %>=}}` delimiters,
 * as mustache 4.2 renders them. A partial (`{{> name}}`) is empty text, a partial alone on its line
 * takes the line with it: Prompty's TypeScript runtime calls `Mustache.render(template, inputs)` with
 * no partials, and its C# runtime's Stubble has no partial loader. (Its Python runtime's chevron reads
 * `name.mustache` from the process's working directory, else renders it empty too.)
 */
export const createMustacheEngine = (options: MustacheEngineOptions = {}): TemplateEngine => {
  const renderLimitMs = options.renderLimitMs ?? 5000;
  const outputLimit = options.outputLimit ?? 1_000_000;
  const parseLimit = options.parseLimit ?? 1_000_000;

  const compile = (source: string, compileOptions: CompileOptions = {}): CompiledTemplate => {
    const file = compileOptions.file;
    const lineOffset = compileOptions.lineOffset ?? 0;
    const fail = (reason: string, line: number | undefined, cause?: unknown): PromptyardError =>
      templateError(reason, { file, line: line === undefined ? undefined : line + lineOffset }, cause);
    if (source.length > parseLimit) throw fail(`the template has ${source.length} characters, over the limit of ${parseLimit}`, undefined);

    const mustache = loadMustache();
    const parser = uncachedWriter(mustache);
    let tokens: TemplateSpans;
    try {
      tokens = parser.parse(source) as TemplateSpans;
    } catch (error) {
      throw fail(`${describeError(error).replace(/\s*at \d+\s*$/, '')} (Mustache syntax error)`, syntaxErrorLine(source, error), error);
    }
    const names = new Set<string>();
    readVariables(tokens, names);
    const json = new Set(compileOptions.jsonArguments);

    return {
      variables: [...names],
      render: async (args, renderOptions = {}) => {
        renderOptions.signal?.throwIfAborted();
        // Plain objects, as Prompty passes them; fromEntries defines even a `__proto__` argument as an own key.
        const view = Object.fromEntries(Object.entries(args).map(([name, value]) => [name, json.has(name) ? parseJson(value) : value]));
        const writer = boundedWriter(mustache, { deadline: Date.now() + renderLimitMs, renderLimitMs, outputLimit });
        try {
          const context: InstanceType<MustacheModule['Context']> = new mustache.Context(view);
          // No partials, as Prompty passes none: mustache renders each `{{> name}}` as empty text.
          return writer.renderTokens(tokens as unknown as string[][], context, undefined, source);
        } catch (error) {
          throw fail(error instanceof LimitError ? error.message : describeError(error), undefined, error);
        }
      },
    };
  };

  return templateEngine('mustache', compile);
};

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
