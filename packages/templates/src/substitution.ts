import type { CompiledTemplate, RenderOptions } from '@promptyard/core';

/**
 * A template of text and names, as `source.split(pattern)` yields it for a pattern with one capture
 * group: even indices are text, odd indices are names. Each name renders as the argument of that
 * name, verbatim; a missing or inherited one (`constructor`) renders empty.
 */
export const substitutionTemplate = (source: string, parts: readonly string[]): CompiledTemplate => {
  const variables = [...new Set(parts.filter((_part, index) => index % 2 === 1))];
  return {
    variables,
    render: async (args, options: RenderOptions = {}) => {
      options.signal?.throwIfAborted();
      if (parts.length === 1) return source;
      return parts.map((part, index) => (index % 2 === 0 ? part : Object.hasOwn(args, part) ? (args[part] ?? '') : '')).join('');
    },
  };
};
