import { argumentValue, freeTextName, type DialectTemplate } from './dialect.js';

/**
 * One free-text placeholder (Continue `{{{ input }}}`), or none: then the text, when given, is
 * appended after a blank line. (Gemini CLI commands have their own rendering: gemini-format.ts.)
 */
export const compileFreeTextDialect = (body: string, placeholder: RegExp | undefined): DialectTemplate => {
  const parts = placeholder === undefined ? [body] : body.split(placeholder);
  return {
    variables: [freeTextName],
    render: (args) => {
      const value = argumentValue(args, freeTextName) ?? '';
      if (parts.length > 1) return parts.join(value);
      return value.trim() === '' ? body : `${body.replace(/\s+$/, '')}\n\n${value}`;
    },
  };
};

export const continueInput = /\{\{\{?\s*input\s*\}?\}\}/;
