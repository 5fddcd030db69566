import { PromptyardError } from '../errors/errors.js';
import type { Logger } from '../logging/logger.js';
import { formatList } from '../text/suggest.js';
import type { PromptEntry } from '../contracts/types.js';

/** The arguments a get renders with: defaults filled in, long values cut, missing required ones refused. */

export interface PromptLimits {
  /** Argument values longer than this are truncated, with a warning. */
  readonly maxArgumentChars: number;
  /** Rendered prompts larger than this (UTF-8 bytes of their text) are refused. */
  readonly maxResponseBytes: number;
}

/** Where a prompt is declared, for messages: `prompts/review.md:3`. */
export const where = (entry: PromptEntry): string =>
  `${entry.origin.file}${entry.origin.line === undefined ? '' : `:${entry.origin.line}`}`;

/** What a debug record says of a get's arguments: their lengths, never their values. Built only if the record is kept. */
const describeArguments = (args: Readonly<Record<string, string>>): string | undefined => {
  const lengths = Object.entries(args).map(([name, value]) => `${name}:${value.length}`);
  return lengths.length === 0 ? undefined : lengths.join(',');
};

// Runs on every get: no array, string or closure unless something is missing, too long, or extra.
export const prepareArguments = (
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
