import type { Catalog } from './catalog.js';
import { findOrSuggest } from './catalog.js';
import { createDeadlines } from './deadlines.js';
import { PromptyardError } from './errors.js';
import type { Logger } from './logger.js';
import { formatList } from './suggest.js';
import type { PromptEntry, RenderedPrompt } from './types.js';

export interface PromptLimits {
  /** Argument values longer than this are truncated, with a warning. */
  readonly maxArgumentChars: number;
  /** Rendered prompts larger than this (UTF-8 bytes of their text) are refused. */
  readonly maxResponseBytes: number;
}

export interface PromptServiceOptions {
  readonly catalog: Catalog<PromptEntry>;
  readonly logger: Logger;
  readonly limits: PromptLimits;
  /** How long one render may take before the request fails. */
  readonly timeoutMs: number;
}

export interface CompletionResult {
  readonly values: readonly string[];
  readonly total: number;
  readonly hasMore: boolean;
}

export interface PromptService {
  readonly catalog: Catalog<PromptEntry>;
  /** Looks a prompt up, or throws `PROMPT_NOT_FOUND` naming the closest known names. */
  find(name: string): PromptEntry;
  get(name: string, args: Readonly<Record<string, unknown>> | undefined, signal?: AbortSignal): Promise<RenderedPrompt>;
  /**
   * Values for an argument: its enum, its default, then values this server saw for it before (those
   * seen with the same `context` arguments first), matching `value` by prefix, then by substring.
   */
  complete(name: string, argument: string, value: string, context?: Readonly<Record<string, string>>): CompletionResult;
}

const maxCompletionValues = 100;
/** Remembered values per prompt argument: the most recent distinct ones. */
const maxSeenValues = 20;
/** How many recent gets the history holds (a power of two): memory stays bounded. */
const historySize = 4096;
/** Longer values (pasted code) are not worth offering again. */
const maxSeenLength = 200;

interface SeenValue {
  readonly value: string;
  readonly with: Readonly<Record<string, string>>;
}

/**
 * The arguments of the last `historySize` gets, kept as given (no copy, no index): a get only writes
 * two slots, and a completion, which is rare, reads the history. Indexing every get by prompt and
 * argument cost ~3.5 µs of each prompts/get in the CPU profile, and ~10% of its latency over stdio.
 */
const createHistory = () => {
  const names: (string | undefined)[] = new Array<string | undefined>(historySize).fill(undefined);
  const values: (Readonly<Record<string, string>> | undefined)[] = new Array<Readonly<Record<string, string>> | undefined>(
    historySize,
  ).fill(undefined);
  let next = 0;
  const worthKeeping = (value: string): boolean => value !== '' && value.length <= maxSeenLength && !value.includes('\n');
  return {
    add: (name: string, args: Readonly<Record<string, string>>): void => {
      const slot = next++ & (historySize - 1);
      names[slot] = name;
      values[slot] = args;
    },
    /** The distinct values given for `argument` of prompt `name`, most recent first, with the other arguments given alongside. */
    of: (name: string, argument: string): SeenValue[] => {
      const found: SeenValue[] = [];
      const taken = new Set<string>();
      for (let back = 1; back <= Math.min(next, historySize) && found.length < maxSeenValues; back++) {
        const slot = (next - back) & (historySize - 1);
        const args = values[slot];
        if (names[slot] !== name || args === undefined) continue;
        const value = args[argument];
        if (value === undefined || !worthKeeping(value) || taken.has(value)) continue;
        taken.add(value);
        const others: Record<string, string> = {};
        for (const [other, otherValue] of Object.entries(args))
          if (other !== argument && otherValue.length <= maxSeenLength) others[other] = otherValue;
        found.push({ value, with: others });
      }
      return found;
    },
  };
};

const contentBytes = (rendered: RenderedPrompt): number => {
  let bytes = 0;
  for (const message of rendered.messages) {
    const { content } = message;
    if (content.type === 'text') bytes += Buffer.byteLength(content.text, 'utf8');
    else if (content.type === 'image') bytes += content.data.length;
    else bytes += 'text' in content.resource ? Buffer.byteLength(content.resource.text, 'utf8') : content.resource.blob.length;
  }
  return bytes;
};

/**
 * Whether the content may pass `limit` UTF-8 bytes, without counting them: a UTF-16 unit is at most
 * 3 bytes. Counting a 2 KB prompt was ~3 µs of each prompts/get in the CPU profile.
 */
const mayExceed = (rendered: RenderedPrompt, limit: number): boolean => {
  let upper = 0;
  for (const { content } of rendered.messages) {
    if (content.type === 'text') upper += content.text.length * 3;
    else if (content.type === 'image') upper += content.data.length;
    else upper += 'text' in content.resource ? content.resource.text.length * 3 : content.resource.blob.length;
  }
  return upper > limit;
};

const where = (entry: PromptEntry): string => `${entry.origin.file}${entry.origin.line === undefined ? '' : `:${entry.origin.line}`}`;

/** The behaviour behind `prompts/get` and completion, independent of any transport or SDK. */
export const createPromptService = (options: PromptServiceOptions): PromptService => {
  const { catalog, logger, limits, timeoutMs } = options;
  const withDeadline = createDeadlines(timeoutMs);
  const history = createHistory();

  const find = (name: string): PromptEntry => findOrSuggest(catalog, name, 'PROMPT_NOT_FOUND');

  /** What a debug record says of a get's arguments: their lengths, never their values. Built only if the record is kept. */
  const describeArguments = (args: Readonly<Record<string, string>>): string | undefined => {
    const lengths = Object.entries(args).map(([name, value]) => `${name}:${value.length}`);
    return lengths.length === 0 ? undefined : lengths.join(',');
  };

  // Runs on every get: no array, string or closure unless something is missing, too long, or extra.
  const prepareArguments = (entry: PromptEntry, given: Readonly<Record<string, unknown>>): Record<string, string> => {
    const args: Record<string, string> = {};
    let missing: string[] | undefined;
    let taken = 0;
    for (const argument of entry.arguments) {
      const raw = given[argument.name];
      if (raw !== undefined) taken += 1;
      let value = raw === undefined || raw === null ? undefined : typeof raw === 'string' ? raw : String(raw);
      if (value === undefined || (value === '' && argument.required && argument.default === undefined)) {
        if (argument.default !== undefined) value = argument.default;
        else if (argument.required) {
          (missing ??= []).push(argument.name);
          continue;
        } else continue;
      }
      if (value.length > limits.maxArgumentChars) {
        logger.warn('argument truncated', {
          prompt: entry.name,
          argument: argument.name,
          length: value.length,
          limit: limits.maxArgumentChars,
        });
        value = value.slice(0, limits.maxArgumentChars);
      }
      args[argument.name] = value;
    }
    if (missing !== undefined) {
      throw new PromptyardError(
        'MISSING_ARGUMENTS',
        `Prompt "${entry.name}" is missing required argument${missing.length > 1 ? 's' : ''} ${formatList(missing, 'and')} (declared in ${where(entry)}).`,
        { data: { name: entry.name, missing } },
      );
    }
    // Clients may send arguments a prompt does not take: they are ignored, as the spec lets a server do.
    let givenCount = 0;
    for (const key in given) if (Object.hasOwn(given, key)) givenCount += 1;
    if (givenCount > taken) {
      const ignored = Object.keys(given).filter((key) => !entry.arguments.some((argument) => argument.name === key));
      logger.debug('ignoring arguments the prompt does not take', { prompt: entry.name, ignored: ignored.join(',') });
    }
    logger.debug('prompts/get', {
      prompt: entry.name,
      get args() {
        return describeArguments(args);
      },
    });
    return args;
  };

  return {
    catalog,
    find,
    get: async (name, given = {}, signal) => {
      const entry = find(name);
      const args = prepareArguments(entry, given);
      history.add(entry.name, args);
      const rendered = await withDeadline(
        () =>
          new PromptyardError(
            'TIMEOUT',
            `Prompt "${name}" did not render within ${timeoutMs} ms ([timeouts] prompt_ms); simplify the template in ${where(entry)} or raise the limit.`,
          ),
        // The deadline's signal reaches the engine, so a render past [timeouts] prompt_ms stops.
        // `deadline` is the render options: its signal is made only if the engine reads it.
        (deadline) => entry.render(args, deadline),
        timeoutMs,
        signal,
      );
      const bytes = mayExceed(rendered, limits.maxResponseBytes) ? contentBytes(rendered) : 0;
      if (bytes > limits.maxResponseBytes) {
        throw new PromptyardError(
          'RESPONSE_TOO_LARGE',
          `Prompt "${name}" rendered ${bytes} bytes, over the ${limits.maxResponseBytes}-byte limit ([limits] max_response_bytes); shorten the arguments or raise the limit.`,
          { data: { name, bytes, limit: limits.maxResponseBytes } },
        );
      }
      return rendered.description === undefined ? { description: entry.description, messages: rendered.messages } : rendered;
    },
    complete: (name, argumentName, value, context = {}) => {
      const entry = find(name);
      const argument = entry.arguments.find((candidate) => candidate.name === argumentName);
      if (argument === undefined) return { values: [], total: 0, hasMore: false };
      const remembered = history.of(entry.name, argumentName);
      const contextKeys = Object.keys(context);
      const matchesContext = (item: SeenValue): boolean =>
        contextKeys.length > 0 && contextKeys.every((key) => item.with[key] === context[key]);
      // An enum is a closed set: remembered values outside it are not offered.
      const allowed = (items: readonly SeenValue[]): string[] =>
        items.map((item) => item.value).filter((item) => argument.enum === undefined || argument.enum.includes(item));
      const candidates = [
        ...new Set([
          ...allowed(remembered.filter(matchesContext)),
          ...(argument.enum ?? []),
          ...(argument.default === undefined ? [] : [argument.default]),
          ...allowed(remembered),
        ]),
      ];
      const needle = value.toLowerCase();
      const prefixed = candidates.filter((candidate) => candidate.toLowerCase().startsWith(needle));
      const containing = candidates.filter(
        (candidate) => !candidate.toLowerCase().startsWith(needle) && candidate.toLowerCase().includes(needle),
      );
      const matches = [...prefixed, ...containing];
      return { values: matches.slice(0, maxCompletionValues), total: matches.length, hasMore: matches.length > maxCompletionValues };
    },
  };
};
