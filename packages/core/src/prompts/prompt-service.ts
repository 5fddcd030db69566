/**
 * Prompts: the behaviour behind `prompts/get` — the arguments a get renders with, the deadline, the
 * size check — and completion (here), and the values completion offers, from a bounded history of
 * recent gets (`prompt-completion.ts`). A get's whole path through core is this file and the catalog.
 */
import type { Catalog } from '../catalog/catalog.js';
import { findOrSuggest } from '../catalog/catalog.js';
import { createDeadlines } from '../deadlines/deadlines.js';
import { PromptyardError } from '../errors/errors.js';
import type { Logger } from '../logging/logger.js';
import { closestNames, didYouMean, formatList } from '../text/suggest.js';
import type { PromptEntry, RenderedPrompt } from '../contracts/types.js';
import { completeArgument, createHistory } from './prompt-completion.js';
import type { CompletionResult } from './prompt-completion.js';

export interface PromptLimits {
  /** Argument values longer than this are truncated, with a warning. */
  readonly maxArgumentChars: number;
  /** Rendered prompts larger than this (UTF-8 bytes of their text) are refused. */
  readonly maxResponseBytes: number;
}

/** Where a prompt is declared, for messages: `prompts/review.md:3`. */
const where = (entry: PromptEntry): string => `${entry.origin.file}${entry.origin.line === undefined ? '' : `:${entry.origin.line}`}`;

/** What a debug record says of a get's arguments: their lengths, never their values. Built only if the record is kept. */
const describeArguments = (args: Readonly<Record<string, string>>): string | undefined => {
  const lengths = Object.entries(args).map(([name, value]) => `${name}:${value.length}`);
  return lengths.length === 0 ? undefined : lengths.join(',');
};

/** A value sent for an enum argument is shown in the refusal only when short: arguments can be long. */
const shownValue = (value: string): string => (value.length <= 60 ? JSON.stringify(value) : `a value of ${value.length} characters`);

/**
 * An argument declared with `enum` takes only those values; a refusal names each offending argument
 * and its allowed values. An empty value of an optional argument is "not chosen", as a client's form
 * sends it, and passes. No work beyond one loop unless a value is outside its enum.
 */
const refuseOutsideEnum = (entry: PromptEntry, given: Readonly<Record<string, unknown>>): void => {
  let problems: string[] | undefined;
  let offending: string[] | undefined;
  for (const argument of entry.arguments) {
    const allowed = argument.enum;
    const raw = given[argument.name];
    if (allowed === undefined || raw === undefined || raw === null) continue;
    const value = typeof raw === 'string' ? raw : String(raw);
    if (allowed.includes(value) || (value === '' && (!argument.required || argument.default !== undefined))) continue;
    const hint = didYouMean(closestNames(value, allowed, 1), 'aside');
    (problems ??= []).push(`"${argument.name}" must be one of ${formatList(allowed)}, got ${shownValue(value)}${hint}`);
    (offending ??= []).push(argument.name);
  }
  if (problems === undefined || offending === undefined) return;
  throw new PromptyardError('INVALID_ARGUMENT', `Prompt "${entry.name}": ${problems.join('; ')} (declared in ${where(entry)}).`, {
    data: {
      name: entry.name,
      allowed: Object.fromEntries(offending.map((name) => [name, entry.arguments.find((argument) => argument.name === name)?.enum])),
    },
  });
};

/**
 * The arguments a get renders with: defaults filled in, long values cut, missing required ones refused.
 * Runs on every get: no array, string or closure unless something is missing, too long, or extra.
 */
const prepareArguments = (
  entry: PromptEntry,
  given: Readonly<Record<string, unknown>>,
  limits: PromptLimits,
  logger: Logger,
): Record<string, string> => {
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

export interface PromptServiceOptions {
  readonly catalog: Catalog<PromptEntry>;
  readonly logger: Logger;
  readonly limits: PromptLimits;
  /** How long one render may take before the request fails. */
  readonly timeoutMs: number;
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
 * 3 bytes. Counting every prompt's bytes showed in the CPU profile of prompts/get.
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

/** The behaviour behind `prompts/get` and completion, independent of any transport or SDK. */
export const createPromptService = (options: PromptServiceOptions): PromptService => {
  const { catalog, logger, limits, timeoutMs } = options;
  const withDeadline = createDeadlines(timeoutMs);
  const history = createHistory();

  const find = (name: string): PromptEntry => findOrSuggest(catalog, name, 'PROMPT_NOT_FOUND');

  return {
    catalog,
    find,
    get: async (name, given = {}, signal) => {
      const entry = find(name);
      refuseOutsideEnum(entry, given);
      const args = prepareArguments(entry, given, limits, logger);
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
    complete: (name, argumentName, value, context = {}) => completeArgument(find(name), argumentName, value, context, history),
  };
};
