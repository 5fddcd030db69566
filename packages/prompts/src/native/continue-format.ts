import { parseFrontmatter } from '../frontmatter.js';
import { freeTextName } from './dialect.js';
import { compileFreeTextDialect, continueInput } from './free-text-dialect.js';
import { extraFields, stringField, stripExtension, type NativeDefinition, type NativeFileInput, type NativeSection } from './native-definition.js';

const systemBlock = /<system>([\s\S]*?)<\/system>/;

/**
 * Continue prompts. Current `*.md`: frontmatter and a verbatim body, free text appended. Legacy
 * `*.prompt`: a YAML preamble, `---`, a body with `{{{ input }}}` and an optional `<system>` block,
 * which becomes a first user message (MCP prompts have no system role).
 */
export const parseContinueFormat = (input: NativeFileInput): NativeDefinition => {
  const legacy = input.path.toLowerCase().endsWith('.prompt');
  let data: Readonly<Record<string, unknown>>;
  let body: string;
  if (legacy) {
    const fenced = input.text.startsWith('---') ? input.text : `---\n${input.text}`;
    const split = fenced.indexOf('\n---', 4) === -1 ? { data: {}, body: input.text } : parseFrontmatter(fenced, input.file);
    ({ data, body } = split);
  } else {
    ({ data, body } = parseFrontmatter(input.text, input.file));
  }
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
  const description = stringField(data, 'description');
  const title = stringField(data, 'name');
  return {
    id: stripExtension(stripExtension(input.path, '.prompt'), '.md'),
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    arguments: [{ name: freeTextName, description: legacy ? 'Text for {{{ input }}}' : 'Free text, appended to the prompt', required: false }],
    declared: [],
    sections,
    body: main,
    meta: extraFields(data, ['description', 'name']),
  };
};
