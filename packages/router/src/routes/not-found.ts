import { PromptyardError, closestNames, didYouMean } from '@promptyard/core';
import type { Backend } from '../backends/backend.js';

/** `"a" or "b" or "c"`: how the gateway's hints list close names. */
export const eachQuoted = (names: readonly string[]): string => names.map((name) => `"${name}"`).join(' or ');

/** An unknown tool or prompt name: the closest known names, and which servers are down (they may own it). */
export const notFound = (
  kind: 'Tool' | 'Prompt',
  name: string,
  known: Iterable<string>,
  backends: readonly Backend[],
  separator: string,
): PromptyardError => {
  const code = kind === 'Tool' ? 'TOOL_NOT_FOUND' : 'PROMPT_NOT_FOUND';
  const hint = didYouMean(closestNames(name, [...known]), 'sentence', eachQuoted);
  // A name under a server that is not serving right now: say so instead of a bare "not found".
  for (const backend of backends) {
    const prefix = backend.config.prefix;
    if (backend.state === 'ready' || prefix === false || !name.startsWith(`${prefix}${separator}`)) continue;
    return new PromptyardError(code, `${kind} "${name}" not found: ${backend.unavailableMessage()}`, {
      data: { name, server: backend.id, state: backend.state },
    });
  }
  const down = backends.filter((backend) => backend.state !== 'ready' && backend.state !== 'disabled').map((backend) => backend.id);
  const downHint = down.length > 0 ? ` (not available right now: ${down.join(', ')})` : '';
  return new PromptyardError(code, `${kind} "${name}" not found.${hint}${downHint}`, { data: { name } });
};
