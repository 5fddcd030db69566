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
/** Remembered values per prompt argument, and prompt arguments remembered: memory stays bounded. */
const maxSeenValues = 20;
const maxSeenKeys = 1000;
/** Longer values (pasted code) are not worth offering again. */
const maxSeenLength = 200;

interface SeenValue {
  readonly value: string;
  readonly with: Readonly<Record<string, string>>;
}

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
  const seen = new Map<string, SeenValue[]>();
  const seenKey = (prompt: string, argument: string): string => `${prompt}\u0000${argument}`;

  // Values are remembered after the response is on its way, in one batch per turn of the event loop.
  let toRemember: { readonly name: string; readonly args: Readonly<Record<string, string>> }[] = [];
  const remember = (entry: PromptEntry, args: Readonly<Record<string, string>>): void => {
    if (toRemember.push({ name: entry.name, args }) === 1) setImmediate(flushRemembered);
  };
  /** Also run before a completion, so it sees every value given so far. */
  const flushRemembered = (): void => {
    const batch = toRemember;
    toRemember = [];
    for (const item of batch) rememberNow(item.name, item.args);
  };

  const rememberNow = (name: string, args: Readonly<Record<string, string>>): void => {
    for (const [argument, value] of Object.entries(args)) {
      if (value === '' || value.length > maxSeenLength || value.includes('\n')) continue;
      const key = seenKey(name, argument);
      let values = seen.get(key);
      if (values === undefined) {
        // The oldest quarter goes at once: deleting one key at a time from the front of a Map made
        // each eviction walk past the deleted ones (~5 µs of every prompts/get in the CPU profile).
        if (seen.size >= maxSeenKeys) {
          let evict = maxSeenKeys / 4;
          for (const oldest of seen.keys()) {
            seen.delete(oldest);
            if (--evict === 0) break;
          }
        }
        values = [];
        seen.set(key, values);
      }
      const others: Record<string, string> = {};
      for (const [other, otherValue] of Object.entries(args)) if (other !== argument && otherValue.length <= maxSeenLength) others[other] = otherValue;
      const existing = values.findIndex((item) => item.value === value);
      if (existing !== -1) values.splice(existing, 1);
      values.unshift({ value, with: others });
      if (values.length > maxSeenValues) values.pop();
    }
  };

  const find = (name: string): PromptEntry => findOrSuggest(catalog, name, 'PROMPT_NOT_FOUND');

  const prepareArguments = (entry: PromptEntry, given: Readonly<Record<string, unknown>>): Record<string, string> => {
    const args: Record<string, string> = {};
    const missing: string[] = [];
    const lengths: string[] = [];
    for (const argument of entry.arguments) {
      const raw = given[argument.name];
      let value = raw === undefined || raw === null ? undefined : typeof raw === 'string' ? raw : String(raw);
      if (value === undefined || (value === '' && argument.required && argument.default === undefined)) {
        if (argument.default !== undefined) value = argument.default;
        else if (argument.required) {
          missing.push(argument.name);
          continue;
        } else continue;
      }
      if (value.length > limits.maxArgumentChars) {
        logger.warn('argument truncated', { prompt: entry.name, argument: argument.name, length: value.length, limit: limits.maxArgumentChars });
        value = value.slice(0, limits.maxArgumentChars);
      }
      lengths.push(`${argument.name}:${value.length}`);
      args[argument.name] = value;
    }
    if (missing.length > 0) {
      throw new PromptyardError(
        'MISSING_ARGUMENTS',
        `Prompt "${entry.name}" is missing required argument${missing.length > 1 ? 's' : ''} ${formatList(missing, 'and')} (declared in ${where(entry)}).`,
        { data: { name: entry.name, missing } },
      );
    }
    // Clients may send arguments a prompt does not take: they are ignored, as the spec lets a server do.
    const ignored = Object.keys(given).filter((key) => !entry.arguments.some((argument) => argument.name === key));
    if (ignored.length > 0) logger.debug('ignoring arguments the prompt does not take', { prompt: entry.name, ignored: ignored.join(',') });
    logger.debug('prompts/get', { prompt: entry.name, args: lengths.join(',') || undefined });
    return args;
  };

  return {
    catalog,
    find,
    get: async (name, given = {}, signal) => {
      const entry = find(name);
      const args = prepareArguments(entry, given);
      remember(entry, args);
      const rendered = await withDeadline(
        () => new PromptyardError('TIMEOUT', `Prompt "${name}" did not render within ${timeoutMs} ms ([timeouts] prompt_ms); simplify the template in ${where(entry)} or raise the limit.`),
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
      flushRemembered();
      const entry = find(name);
      const argument = entry.arguments.find((candidate) => candidate.name === argumentName);
      if (argument === undefined) return { values: [], total: 0, hasMore: false };
      const remembered = seen.get(seenKey(entry.name, argumentName)) ?? [];
      const contextKeys = Object.keys(context);
      const matchesContext = (item: SeenValue): boolean => contextKeys.length > 0 && contextKeys.every((key) => item.with[key] === context[key]);
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
      const containing = candidates.filter((candidate) => !candidate.toLowerCase().startsWith(needle) && candidate.toLowerCase().includes(needle));
      const matches = [...prefixed, ...containing];
      return { values: matches.slice(0, maxCompletionValues), total: matches.length, hasMore: matches.length > maxCompletionValues };
    },
  };
};
