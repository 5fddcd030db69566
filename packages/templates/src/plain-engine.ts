import type { CompileOptions, CompiledTemplate, TemplateEngine } from '@promptyard/core';
import { substitutionTemplate } from './substitution.js';
import { templateEngine } from './template-engine.js';

/** `{{ name }}` with optional spaces. */
const placeholder = /\{\{[ \t]*([A-Za-z_][\w.-]*)[ \t]*\}\}/;

/**
 * `{{ name }}` substitution and nothing else: no logic, no filters, no escaping. A name is looked up
 * as a whole (`{{ a.b }}` reads the argument `a.b`); an unknown name renders empty.
 */
export const createPlainEngine = (): TemplateEngine => {
  const compile = (source: string, _options?: CompileOptions): CompiledTemplate => substitutionTemplate(source, source.split(placeholder));

  return templateEngine('plain', compile);
};
