import type { PromptArgument } from '@promptyard/core';
import { tomlErrorLine, tomlErrorReason, tomlErrorSnippet } from '@promptyard/core';
import { parse } from 'smol-toml';
import { fileError } from './file-error.js';
import { describeValue, isRecord } from './value-shape.js';

/** One `[prompts.<name>]` table of a twig.toml. */
export interface TwigPromptDeclaration {
  readonly description?: string;
  readonly arguments: readonly PromptArgument[];
}

export interface TwigManifest {
  /** Normalised library name: the prefix of `library:prompt`. */
  readonly name: string;
  /** Keyed by prompt name: the file's path under `prompts/` without `.md`. */
  readonly prompts: ReadonlyMap<string, TwigPromptDeclaration>;
}

/** `My Prompts-2` → `my_prompts_2`: lowercase, runs outside [a-z0-9] become `_`, no `_` at the ends. */
export const normalizeLibraryName = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/** Best effort: the first line (trimmed) that `matches`, for errors TOML parsing cannot place. */
const findLine = (text: string, matches: (line: string) => boolean): number | undefined => {
  let start = 0;
  for (let line = 1; start <= text.length; line++) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (matches(text.slice(start, end).trim())) return line;
    start = end + 1;
  }
  return undefined;
};

const promptHeaderLine = (text: string, prompt: string): number | undefined =>
  findLine(text, (line) => line.startsWith('[') && (line.includes(`prompts.${prompt}`) || line.includes(`prompts."${prompt}"`)));

const readArguments = (value: unknown, at: string, fail: (reason: string) => never): PromptArgument[] => {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(`${at} must be an array of tables ([[${at}]]), not ${describeValue(value)}`);
  const seen = new Set<string>();
  return value.map((item: unknown, index) => {
    const where = `${at}[${index}]`;
    if (!isRecord(item)) fail(`${where} must be a table, not ${describeValue(item)}`);
    const { name, description, required } = item;
    if (typeof name !== 'string' || name.trim() === '') fail(`${where}.name must be a non-empty string, not ${describeValue(name)}`);
    if (seen.has(name)) fail(`${at} declares "${name}" twice`);
    seen.add(name);
    if (description !== undefined && typeof description !== 'string') {
      fail(`${where}.description must be a string, not ${describeValue(description)}`);
    }
    if (required !== undefined && typeof required !== 'boolean')
      fail(`${where}.required must be true or false, not ${describeValue(required)}`);
    return { name, ...(description !== undefined && { description }), required: required === true };
  });
};

/**
 * Reads a twig.toml: `[prompts.<name>]` with `description` and `[[prompts.<name>.arguments]]` with
 * `name`, `description`, `required`; an optional top-level `name` overrides the folder's name.
 * Unknown keys are ignored (the format belongs to another tool). Throws a file error with a line.
 */
export const parseTwigManifest = (text: string, file: string, folderName: string): TwigManifest => {
  let data: Record<string, unknown>;
  try {
    data = parse(text);
  } catch (error) {
    // The parser's snippet, with a caret under the column, follows the reason.
    throw fileError(file, `invalid TOML: ${tomlErrorReason(error)}${tomlErrorSnippet(error)}`, {
      line: tomlErrorLine(error),
      cause: error,
    });
  }

  const invalid = (reason: string, line: number | undefined): Error => fileError(file, reason, { line });
  const nameLine = (): number | undefined => findLine(text, (line) => /^name\s*=/.test(line));

  const rawName = data.name;
  if (rawName !== undefined && typeof rawName !== 'string')
    throw invalid(`"name" must be a string, not ${describeValue(rawName)}`, nameLine());
  const name = normalizeLibraryName(rawName ?? folderName);
  if (name === '') {
    throw invalid(
      `the library name "${rawName ?? folderName}" has no letters or digits; set name = "…" in twig.toml`,
      rawName === undefined ? undefined : nameLine(),
    );
  }

  const prompts = new Map<string, TwigPromptDeclaration>();
  const rawPrompts = data.prompts;
  if (rawPrompts !== undefined) {
    if (!isRecord(rawPrompts)) {
      throw invalid(
        `"prompts" must be a table, not ${describeValue(rawPrompts)}`,
        findLine(text, (line) => line.startsWith('prompts')),
      );
    }
    for (const [prompt, declaration] of Object.entries(rawPrompts)) {
      const at = `prompts.${prompt}`;
      const fail = (reason: string): never => {
        throw invalid(reason, promptHeaderLine(text, prompt));
      };
      if (!isRecord(declaration)) throw invalid(`${at} must be a table, not ${describeValue(declaration)}`, promptHeaderLine(text, prompt));
      const { description } = declaration;
      if (description !== undefined && typeof description !== 'string') {
        throw invalid(`${at}.description must be a string, not ${describeValue(description)}`, promptHeaderLine(text, prompt));
      }
      const args = readArguments(declaration.arguments, `${at}.arguments`, fail);
      prompts.set(prompt, { ...(description !== undefined && { description }), arguments: args });
    }
  }
  return { name, prompts };
};
