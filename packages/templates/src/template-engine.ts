import type { CompileOptions, CompiledTemplate, TemplateEngine } from '@promptyard/core';

/**
 * An engine from its `compile`: `analyze` reads the compiled template's variables, and `render`
 * compiles with the compile options and renders with the rest (the signal).
 */
export const templateEngine = (name: string, compile: (source: string, options?: CompileOptions) => CompiledTemplate): TemplateEngine => ({
  name,
  analyze: (source, options) => ({ variables: compile(source, options).variables }),
  render: async (source, args, options = {}) => {
    const { signal, ...compileOptions } = options;
    return compile(source, compileOptions).render(args, signal === undefined ? {} : { signal });
  },
  compile,
});
