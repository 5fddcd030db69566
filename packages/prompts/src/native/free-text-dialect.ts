import { argumentValue, freeTextName, type DialectTemplate } from './dialect.js';

/**
 * How Continue adds the text typed after a prompt's slash command (its GUI's `renderSlashCommand.ts`
 * and `renderPromptv1.ts`): a version 1 prompt, or one that holds `{{{ input }}}` written exactly so,
 * renders through Handlebars with `input` set to the text, which is then appended when the result
 * does not contain it; any other prompt gets the text appended after a blank line. Either result is
 * trimmed. (Gemini CLI commands have their own rendering: gemini-format.ts.)
 */
export interface ContinueTemplate extends DialectTemplate {
  /** Whether Continue renders this prompt through Handlebars. */
  readonly handlebars: boolean;
}

/** `{{{ x }}}` (raw) or `{{ x }}` (HTML-escaped); comments are matched apart. */
export const mustache = /\{\{\{\s*([^{}]*?)\s*\}\}\}|\{\{\s*([^{}]*?)\s*\}\}/g;
const comment = /\{\{!--[\s\S]*?--\}\}|\{\{![^}]*\}\}/g;

// Handlebars' escapeExpression.
const escapes: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
  '`': '&#x60;',
  '=': '&#x3D;',
};
const escapeHtml = (text: string): string => text.replace(/[&<>"'`=]/g, (char) => escapes[char] ?? char);

/**
 * The Handlebars pass as Continue runs it with `{ input }` as the data: `input` is filled, a name that
 * is `input` in another case is empty (Handlebars finds no such key), comments disappear, and every
 * other expression (file paths, context providers, helpers) stays as written — `validate` says so.
 */
const renderHandlebars = (prompt: string, input: string): string =>
  prompt.replace(comment, '').replace(mustache, (whole, raw: string | undefined, escaped: string | undefined) => {
    const name = raw ?? escaped ?? '';
    if (name === 'input') return raw === undefined ? escapeHtml(input) : input;
    return name.toLowerCase() === 'input' ? '' : whole;
  });

export const compileContinueBody = (prompt: string, version1: boolean): ContinueTemplate => {
  const handlebars = version1 || prompt.includes('{{{ input }}}');
  return {
    variables: [freeTextName],
    handlebars,
    render: (args) => {
      const input = (argumentValue(args, freeTextName) ?? '').trimStart();
      if (!handlebars) return [prompt, input].join('\n\n').trim();
      const rendered = renderHandlebars(prompt, input);
      return (rendered.includes(input) ? rendered : `${rendered}\n\n${input}`).trim();
    },
  };
};
