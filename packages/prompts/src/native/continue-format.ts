import { parseFrontmatter } from '../formats/frontmatter.js';
import { freeTextName } from './dialect.js';
import { compileFreeTextDialect, continueInput } from './free-text-dialect.js';
import {
  extraFields,
  stringField,
  stripExtension,
  type NativeDefinition,
  type NativeFileInput,
  type NativeSection,
} from './native-definition.js';
import { findUnfilled } from './unfilled.js';
import { findKeyTypos } from '../formats/frontmatter-typos.js';

const systemBlock = /<system>([\s\S]*?)<\/system>/;
/** Handlebars expressions of a legacy body (`{{{ currentFile }}}`, `{{ url "…" }}`). */
const handlebars = /\{\{\{?[^{}]*\}?\}\}/g;

/**
 * A legacy `.prompt` file split as Continue splits it: a YAML preamble before the first `---` line
 * (an opening `---` is allowed), the body after it; without that line the whole file is the body.
 */
const splitLegacy = (text: string, file: string): { data: Readonly<Record<string, unknown>>; body: string } => {
  const at = text.indexOf('\n---\n');
  if (at === -1) return { data: {}, body: text };
  const preamble = text.slice(0, at).replace(/^---(\n|$)/, '');
  return { data: parseFrontmatter(`---\n${preamble}\n---\n`, file).data, body: text.slice(at + 5) };
};

/**
 * Continue prompts. Current `*.md`: frontmatter and a verbatim body, free text appended. Legacy
 * `*.prompt`: a YAML preamble, `---`, a body with `{{{ input }}}` and an optional `<system>` block,
 * which becomes a first user message (MCP prompts have no system role). As in Continue, a legacy
 * prompt without a `description` is described by its name.
 */
export const parseContinueFormat = (input: NativeFileInput): NativeDefinition => {
  const legacy = input.path.toLowerCase().endsWith('.prompt');
  const { data, body } = legacy ? splitLegacy(input.text, input.file) : parseFrontmatter(input.text, input.file);
  const sections: NativeSection[] = [];
  let main = body;
  const system = legacy ? systemBlock.exec(body) : null;
  if (system !== null) {
    const text = (system[1] ?? '').trim();
    sections.push({ role: 'system', variables: [], render: async () => text });
    main = body.replace(systemBlock, '').trim();
  }
  const template = compileFreeTextDialect(main, legacy ? continueInput : undefined);
  sections.push({ role: 'user', variables: template.variables, render: async (args) => template.render(args) });
  const id = stripExtension(stripExtension(input.path, '.prompt'), '.md');
  const title = stringField(data, 'name');
  const description = stringField(data, 'description') ?? (legacy ? (title ?? id.split('/').pop()) : undefined);
  return {
    id,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    arguments: [
      { name: freeTextName, description: legacy ? 'Text for {{{ input }}}' : 'Free text, appended to the prompt', required: false },
    ],
    declared: [],
    sections,
    body: main,
    unfilled: legacy ? findUnfilled(body, handlebars, (placeholder) => continueInput.test(placeholder)) : [],
    typos: findKeyTypos(data, 'continue'),
    meta: extraFields(data, ['description', 'name']),
  };
};
