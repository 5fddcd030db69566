import { createHash } from 'node:crypto';

/** What MCP tool names allow (SEP-986); prompt names keep to it so they can be tool arguments and URIs too. */
const maxNameLength = 64;
const allowed = /[^A-Za-z0-9_.:/-]+/g;

export const isValidPromptName = (name: string): boolean =>
  name.length > 0 && name.length <= maxNameLength && !/[^A-Za-z0-9_.:/-]/.test(name);

/**
 * A deterministic, valid name (a valid one is kept as it is): accents dropped (`résumé` → `resume`), other characters → `-`, and a
 * name over 64 characters cut with a short hash of the whole so that two long names stay distinct.
 */
export const normalizePromptName = (raw: string): string => {
  if (isValidPromptName(raw)) return raw;
  const ascii = raw.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  let name = ascii
    .replace(allowed, '-')
    .replace(/-{2,}/g, '-')
    .replace(/(^|[/:])-+|-+($|[/:])/g, '$1$2');
  if (name === '') name = `prompt-${createHash('sha256').update(raw).digest('hex').slice(0, 8)}`;
  if (name.length <= maxNameLength) return name;
  const hash = createHash('sha256').update(raw).digest('hex').slice(0, 8);
  return `${name.slice(0, maxNameLength - 9)}-${hash}`;
};
