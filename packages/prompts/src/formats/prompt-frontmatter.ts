import { didYouMean, namesWithinEdits } from '@promptyard/core';
import type { PromptArgument } from '@promptyard/core';
import { fileError } from './file-error.js';
import { editsFor, findKeyTypos, knownFrontmatterKeys } from './frontmatter-typos.js';
import type { KeyTypo } from './frontmatter-typos.js';
import { describeValue, isRecord } from './value-shape.js';

/** The frontmatter keys Promptyard understands; every other key is passed through as metadata. */
export interface PromptFrontmatter {
  readonly description?: string;
  readonly title?: string;
  readonly arguments: readonly PromptArgument[];
  readonly engine?: string;
  readonly extra: Readonly<Record<string, unknown>>;
  /** Unknown keys close to a known one (`argumnets`): kept in `extra`, reported as likely typos. */
  readonly typos: readonly KeyTypo[];
}

/** Where the frontmatter sits, so that errors can point at the offending key's line. */
export interface FrontmatterLocation {
  readonly file: string;
  readonly text: string;
  readonly bodyLine: number;
}

const knownKeys: ReadonlySet<string> = new Set(knownFrontmatterKeys.markdown);
const argumentKeys: readonly string[] = knownFrontmatterKeys['markdown-argument'];

/** The 1-based line where a top-level frontmatter key is written, if it can be found. */
export const frontmatterKeyLine = (location: FrontmatterLocation, key: string): number | undefined => {
  const { text, bodyLine } = location;
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let line = 1; line < bodyLine && start < text.length; line++) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (text.startsWith(key, start)) {
      const rest = text.slice(start + key.length, end).trimStart();
      if (rest.startsWith(':')) return line;
    }
    start = end + 1;
  }
  return undefined;
};

const optionalString = (value: unknown, what: string, fail: (reason: string) => never): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') fail(`${what} must be a string, not ${describeValue(value)}`);
  return value;
};

const readArgument = (item: unknown, index: number, fail: (reason: string) => never): PromptArgument => {
  const at = `arguments[${index}]`;
  if (!isRecord(item)) fail(`${at} must be a mapping such as "- name: topic", not ${describeValue(item)}`);
  for (const key of Object.keys(item)) {
    if (!argumentKeys.includes(key)) {
      const hint = didYouMean(namesWithinEdits(key, argumentKeys, editsFor(key)).slice(0, 1), 'aside');
      fail(`${at} has an unknown key "${key}"${hint}; allowed keys: ${argumentKeys.join(', ')}`);
    }
  }
  const { name, required } = item;
  if (typeof name !== 'string' || name.trim() === '') fail(`${at}.name must be a non-empty string, not ${describeValue(name)}`);
  const title = optionalString(item.title, `${at}.title`, fail);
  const description = optionalString(item.description, `${at}.description`, fail);
  if (required !== undefined && required !== null && typeof required !== 'boolean') {
    fail(`${at}.required must be true or false, not ${describeValue(required)}`);
  }
  let fallback: string | undefined;
  const rawDefault = item.default;
  if (rawDefault !== undefined && rawDefault !== null) {
    if (typeof rawDefault !== 'string' && typeof rawDefault !== 'number' && typeof rawDefault !== 'boolean') {
      fail(`${at}.default must be a string, number or boolean, not ${describeValue(rawDefault)}`);
    }
    fallback = String(rawDefault);
  }
  let values: string[] | undefined;
  const rawEnum = item.enum;
  if (rawEnum !== undefined && rawEnum !== null) {
    if (!Array.isArray(rawEnum) || rawEnum.length === 0 || !rawEnum.every((value) => typeof value === 'string')) {
      fail(`${at}.enum must be a non-empty list of strings, such as [small, large]`);
    }
    values = rawEnum;
    if (fallback !== undefined && !values.includes(fallback)) {
      fail(`${at}.default "${fallback}" is not one of its enum values: ${values.join(', ')}`);
    }
  }
  return {
    name,
    ...(title !== undefined && { title }),
    ...(description !== undefined && { description }),
    required: required === true,
    ...(fallback !== undefined && { default: fallback }),
    ...(values !== undefined && { enum: values }),
  };
};

/** Checks the known keys' shapes; a wrong shape is a file error naming the key and what is allowed. */
export const readPromptFrontmatter = (data: Readonly<Record<string, unknown>>, location: FrontmatterLocation): PromptFrontmatter => {
  const failAt =
    (key: string) =>
    (reason: string): never => {
      throw fileError(location.file, `frontmatter: ${reason}`, { line: frontmatterKeyLine(location, key) });
    };

  // A key written with no value (`description:`) is treated as absent.
  const description = optionalString(data.description, 'key "description"', failAt('description'));
  const title = optionalString(data.title, 'key "title"', failAt('title'));
  const engine = optionalString(data.engine, 'key "engine"', failAt('engine'));

  const args: PromptArgument[] = [];
  const rawArguments = data.arguments;
  if (rawArguments !== undefined && rawArguments !== null) {
    const fail: (reason: string) => never = failAt('arguments');
    if (!Array.isArray(rawArguments)) {
      fail(`key "arguments" must be a list of mappings such as "- name: topic", not ${describeValue(rawArguments)}`);
    }
    const seen = new Set<string>();
    rawArguments.forEach((item: unknown, index) => {
      const argument = readArgument(item, index, fail);
      if (seen.has(argument.name)) fail(`key "arguments" declares "${argument.name}" twice`);
      seen.add(argument.name);
      args.push(argument);
    });
  }

  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (knownKeys.has(key)) continue;
    // A `__proto__` key must stay data, never become the prototype.
    if (key === '__proto__') Object.defineProperty(extra, key, { value, enumerable: true, writable: true, configurable: true });
    else extra[key] = value;
  }
  return {
    ...(description !== undefined && { description }),
    ...(title !== undefined && { title }),
    ...(engine !== undefined && { engine }),
    arguments: args,
    extra,
    typos: findKeyTypos(data, 'markdown'),
  };
};
