import { PromptyardError, describeError, isPromptyardError } from '@promptyard/core';
import { LimitError, type Site } from './jinja-interpreter.js';

/** The Jinja engine's errors: TEMPLATE_ERRORs naming the file and line, with what to do. */

export const templateError = (reason: string, site: Partial<Site> | undefined, cause: unknown): PromptyardError => {
  // `reason` without the position, as file errors carry it (a log line names the file and line).
  const { file, line } = site ?? {};
  const data: Record<string, unknown> = {};
  if (file !== undefined) data['file'] = file;
  if (line !== undefined) data['line'] = line;
  data['reason'] = reason;
  const where = file === undefined ? (line === undefined ? '' : `line ${line}: `) : line === undefined ? `${file}: ` : `${file}:${line}: `;
  return new PromptyardError('TEMPLATE_ERROR', `${where}${reason}`, { cause, data });
};

/** The parser's words for what it met, in terms of what to write. */
export const syntaxReason = (error: unknown): string => {
  const message = describeError(error);
  if (message === 'Unexpected end of input') return 'a string or tag is not closed: close it';
  if (error instanceof TypeError) return 'the template ends inside a tag or block: close it';
  if (/^\{% \w+ %\}/.test(message)) return message;
  return `${message.replace(/^Parser Error: /, '')} (Jinja syntax error)`;
};

export const runtimeReason = (error: unknown): string => {
  if (error instanceof LimitError) return error.message;
  if (error instanceof RangeError) return `${error.message}: a macro calls itself too deeply, or a text grew too large`;
  return describeError(error);
};

/** An error at a node: a TEMPLATE_ERROR at its site, unless it already is one. */
export const locatedAt =
  (sites: ReadonlyMap<unknown, Site>) =>
  (node: unknown, error: unknown): Error =>
    isPromptyardError(error) ? (error as PromptyardError) : templateError(describeError(error), sites.get(node), error);
