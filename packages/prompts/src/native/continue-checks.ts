import { findKeyTypos } from '../formats/frontmatter-typos.js';
import { readContinueFile } from './continue-format.js';
import { mustache } from './free-text-dialect.js';
import type { NativeFileInput } from './native-definition.js';
import { findingAt, lineAt, type ToolFinding } from './tool-findings.js';

/**
 * What Continue (continuedev/continue d0a3c0b6) does with a prompt file that Promptyard does not do
 * the same way, for `validate`. Continue's context providers (core/promptFiles/index.ts) fill
 * `{{ diff }}` in a Handlebars prompt and are attached for `@diff` in any other one.
 */
const contextProviders = [
  'file',
  'clipboard',
  'repo-map',
  'currentFile',
  'os',
  'problems',
  'codebase',
  'tree',
  'open',
  'debugger',
  'terminal',
  'diff',
];

const keepAsText = 'Promptyard sends it as written; put what the model needs in the prompt or in the arguments text';

/** Each Handlebars expression other than `input` in a prompt Continue renders through Handlebars. */
const handlebarsFindings = (text: string, prompt: string): ToolFinding[] => {
  const findings: ToolFinding[] = [];
  const seen = new Set<string>();
  for (const [whole, raw, escaped] of prompt.replace(/\{\{!--[\s\S]*?--\}\}|\{\{![^}]*\}\}/g, '').matchAll(mustache)) {
    const name = raw ?? escaped ?? '';
    if (name.toLowerCase() === 'input' || seen.has(whole)) continue;
    seen.add(whole);
    const what = contextProviders.includes(name)
      ? `, which Continue fills from its ${name} context provider,`
      : /^[#/>^~&]|\s|^else$/.test(name)
        ? ', a Handlebars helper or block,'
        : `, which Continue fills with the content of the file ${name},`;
    findings.push(findingAt(text, whole, `${whole}${what} is not supported yet: ${keepAsText}`));
  }
  return findings;
};

/** `@diff`, `@https://…` and `@path/file` in any other prompt: Continue attaches them as context. */
const attachmentFindings = (text: string, prompt: string): ToolFinding[] => {
  const findings: ToolFinding[] = [];
  const seen = new Set<string>();
  for (const [whole, name = ''] of prompt.matchAll(/(?<!\S)@(\S+)/g)) {
    if (seen.has(whole)) continue;
    seen.add(whole);
    const what = contextProviders.includes(name)
      ? `its ${name} context`
      : name.startsWith('http')
        ? 'the page'
        : /[/\\]|\.\w+$/.test(name)
          ? 'that file, when the workspace has it,'
          : undefined;
    if (what !== undefined)
      findings.push(
        findingAt(text, whole, `${whole}, for which Continue attaches ${what} to the message, is not supported yet: ${keepAsText}`),
      );
  }
  const loose = prompt.match(/\{\{\{?\s*input\s*\}?\}\}/)?.[0];
  if (loose !== undefined) {
    findings.push(
      findingAt(
        text,
        loose,
        `${loose} is filled by Continue only when written {{{ input }}} or in a prompt with version: 1; otherwise Continue, like Promptyard, sends it as written and appends the text: write {{{ input }}} to have it filled`,
      ),
    );
  }
  return findings;
};

/** A Markdown prompt Continue also applies as a rule: without `invokable: true` (core/config/markdown/loadMarkdownRules.ts). */
const ruleFinding = (input: NativeFileInput, data: Readonly<Record<string, unknown>>): ToolFinding[] => {
  if (!input.path.toLowerCase().endsWith('.md') || data['invokable'] === true) return [];
  // A misspelt `invokable` is reported as a typo already, which says what to do.
  if (findKeyTypos(data, 'continue').some((typo) => typo.suggestion === 'invokable')) return [];
  return [
    {
      message:
        'a Markdown prompt without invokable: true, which Continue also applies as a rule to its chats, is not supported yet as a rule: Promptyard serves it as a prompt only; add invokable: true if it is meant as a prompt',
    },
  ];
};

export const checkContinueFile = (input: NativeFileInput): ToolFinding[] => {
  const { text } = input;
  const { data, prompt, dropped, ignoredPreamble } = readContinueFile(input);
  const findings: ToolFinding[] = [...ruleFinding(input, data)];
  if (ignoredPreamble) {
    findings.push({
      line: 1,
      message:
        'the text before the first --- line is ignored, as Continue ignores it: Continue reads it as YAML settings (name, description), and it is not key: value lines; remove that --- line to keep the text in the prompt',
    });
  }
  if (dropped) {
    const second = text.indexOf('\n---\n', text.indexOf('\n---\n') + 1);
    const line = lineAt(text, '\n---\n', second);
    findings.push({
      message:
        'the text after this second --- line is dropped, as Continue drops it (it reads only up to there): remove the line, or write a Markdown rule as ***, to keep the text',
      ...(line === undefined ? {} : { line: line + 1 }),
    });
  }
  const handlebars = data['version'] === 1 || prompt.includes('{{{ input }}}');
  findings.push(...(handlebars ? handlebarsFindings(text, prompt) : attachmentFindings(text, prompt)));
  return findings;
};
