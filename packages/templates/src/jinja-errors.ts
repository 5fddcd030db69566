import type { PromptyardError } from '@promptyard/core';
import { describeError, isPromptyardError } from '@promptyard/core';
import { LimitError, type Site } from './jinja-interpreter.js';
import { templateError } from './template-error.js';

/** The Jinja engine's errors: TEMPLATE_ERRORs naming the file and line, with what to do. */

export { templateError };

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
