import { PromptyardError } from '@promptyard/core';

/**
 * A TEMPLATE_ERROR naming where it happened (`file:line: reason`), with the file, line and bare reason
 * in its data: the error the Jinja and Mustache engines throw at load and at render.
 */
export const templateError = (
  reason: string,
  site: { readonly file?: string | undefined; readonly line?: number | undefined } | undefined,
  cause: unknown,
): PromptyardError => {
  // `reason` without the position, as file errors carry it (a log line names the file and line).
  const { file, line } = site ?? {};
  const data: Record<string, unknown> = {};
  if (file !== undefined) data['file'] = file;
  if (line !== undefined) data['line'] = line;
  data['reason'] = reason;
  const where = file === undefined ? (line === undefined ? '' : `line ${line}: `) : line === undefined ? `${file}: ` : `${file}:${line}: `;
  return new PromptyardError('TEMPLATE_ERROR', `${where}${reason}`, { cause, data });
};
