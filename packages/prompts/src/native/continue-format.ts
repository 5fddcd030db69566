import { fileError, fileErrorDetails } from '../formats/file-error.js';
import { parseFrontmatter } from '../formats/frontmatter.js';
import { findKeyTypos } from '../formats/frontmatter-typos.js';
import { freeTextName } from './dialect.js';
import { compileContinueBody } from './free-text-dialect.js';
import {
  extraFields,
  stringField,
  stripExtension,
  type NativeDefinition,
  type NativeFileInput,
  type NativeSection,
} from './native-definition.js';

/**
 * Continue prompt files, read as Continue reads every `.prompt` and `.md` file of its prompts folder
 * (core/promptFiles/parsePromptFile.ts, continuedev/continue d0a3c0b6): the text splits at each
 * `\n---\n`; with one or more, the first part is a YAML preamble and the second the prompt — Continue
 * drops any further part — and without one the whole file is the prompt.
 */
const splitContinueFile = (text: string): { preamble: string; prompt: string; dropped: boolean } => {
  const parts = text.split('\n---\n');
  if (parts.length === 1) return { preamble: '', prompt: text, dropped: false };
  return { preamble: parts[0] ?? '', prompt: parts[1] ?? '', dropped: parts.length > 2 };
};

/**
 * The preamble as YAML; an opening `---` is YAML's own document marker there. YAML that is not a
 * mapping (a sentence, a list) names nothing, as in Continue: undefined then.
 */
const readPreamble = (preamble: string, file: string): Readonly<Record<string, unknown>> | undefined => {
  const yaml = preamble.replace(/^---[ \t]*(\n|$)/, '');
  if (yaml.trim() === '') return {};
  try {
    return parseFrontmatter(`---\n${yaml}\n---\n`, file).data;
  } catch (error) {
    if (fileErrorDetails(error).reason.startsWith('the frontmatter must be a mapping')) return undefined;
    throw error;
  }
};

/**
 * `<system>…</system>` becomes Continue's system message and the prompt is what follows
 * `</system>`, trimmed; Continue fails on a `<system>` never closed.
 */
const splitSystem = (prompt: string, file: string): { system?: string; prompt: string } => {
  if (!prompt.includes('<system>')) return { prompt };
  const after = prompt.split('</system>');
  if (after.length < 2) {
    throw fileError(
      file,
      '<system> is never closed, and Continue refuses such a prompt file: add a </system> line after the system message',
    );
  }
  const system = (prompt.split('<system>')[1] ?? '').split('</system>')[0] ?? '';
  return { system: system.trim(), prompt: (after[1] ?? '').trim() };
};

/** A Continue prompt file's parts, as Continue reads them. */
export interface ContinueFile {
  readonly data: Readonly<Record<string, unknown>>;
  readonly system?: string;
  readonly prompt: string;
  /** Whether a third part after a second `---` line was dropped. */
  readonly dropped: boolean;
  /** Whether the preamble was YAML but not a mapping, which Continue ignores. */
  readonly ignoredPreamble: boolean;
}

export const readContinueFile = (input: NativeFileInput): ContinueFile => {
  const split = splitContinueFile(input.text);
  const data = readPreamble(split.preamble, input.file);
  return { data: data ?? {}, ...splitSystem(split.prompt, input.file), dropped: split.dropped, ignoredPreamble: data === undefined };
};

/**
 * A Continue prompt: its name (`name`, else the file's name up to `.prompt`) describes it when it
 * has no `description`; the system message becomes a first user message (MCP prompts have no
 * system role); the text typed after the command is the `arguments` argument (free-text-dialect.ts).
 */
export const parseContinueFormat = (input: NativeFileInput): NativeDefinition => {
  const { data, system, prompt } = readContinueFile(input);
  const template = compileContinueBody(prompt, data['version'] === 1);
  const sections: NativeSection[] = [];
  if (system !== undefined) sections.push({ role: 'system', variables: [], render: async () => system });
  sections.push({ role: 'user', variables: template.variables, render: async (args) => template.render(args) });
  const title = stringField(data, 'name');
  const fileName = (input.path.split('/').pop() ?? input.path).split('.prompt')[0] ?? input.path;
  const description = stringField(data, 'description') ?? title ?? fileName;
  const fills = template.handlebars && /\{\{\{?\s*input\s*\}?\}\}/.test(prompt);
  return {
    id: stripExtension(stripExtension(input.path, '.prompt'), '.md'),
    ...(title === undefined ? {} : { title }),
    description,
    arguments: [
      { name: freeTextName, description: fills ? 'Text for {{{ input }}}' : 'Free text, appended to the prompt', required: false },
    ],
    declared: [],
    sections,
    body: prompt,
    typos: findKeyTypos(data, 'continue'),
    meta: extraFields(data, ['description', 'name']),
  };
};
