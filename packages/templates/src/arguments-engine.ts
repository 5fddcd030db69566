import type { CompileOptions, CompiledTemplate, RenderOptions, TemplateEngine } from '@promptyard/core';
import { templateEngine } from './template-engine.js';

const placeholder = '$ARGUMENTS';

/** Whether `source` uses the Claude Code / spec-kit `$ARGUMENTS` placeholder. */
export const hasArgumentsPlaceholder = (source: string): boolean => source.includes(placeholder);

/**
 * The Claude Code / spec-kit convention: every literal `$ARGUMENTS` becomes the argument named
 * `arguments`, verbatim (never parsed, `$&` and `$1` stay as typed); an absent argument is empty.
 */
export const createArgumentsEngine = (): TemplateEngine => {
  const compile = (source: string, _options?: CompileOptions): CompiledTemplate => {
    const parts = source.split(placeholder);
    return {
      variables: parts.length > 1 ? ['arguments'] : [],
      render: async (args, options: RenderOptions = {}) => {
        options.signal?.throwIfAborted();
        if (parts.length === 1) return source;
        // `join` rather than `replace`, so `$` patterns in the value are never interpreted.
        return parts.join(Object.hasOwn(args, 'arguments') ? (args['arguments'] ?? '') : '');
      },
    };
  };

  return templateEngine('arguments', compile);
};
