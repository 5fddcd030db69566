import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { fileError } from './file-error.js';
import { parseSimpleYaml } from './simple-yaml.js';
import { describeValue, isRecord } from './value-shape.js';
import { explainYamlError } from './yaml-errors.js';

export interface Frontmatter {
  /** The YAML mapping between the fences; empty when the file has no frontmatter. */
  readonly data: Readonly<Record<string, unknown>>;
  /** Everything after the closing fence line. */
  readonly body: string;
  /** How many lines precede the body (0 without frontmatter). */
  readonly bodyLine: number;
}

// Core schema: no custom tags or timestamps; a low alias cap defeats "billion laughs" documents.
const yamlOptions = { schema: 'core', uniqueKeys: true, maxAliasCount: 10, logLevel: 'error' } as const;

// The full YAML parser loads only for frontmatter the simple parser declines: most files never need
// it, and loading it costs memory in every process.
let yamlParse: typeof Yaml.parse | undefined;
const parse = (text: string, options: typeof yamlOptions): unknown => {
  yamlParse ??= (createRequire(import.meta.url)('yaml') as typeof Yaml).parse;
  return yamlParse(text, options);
};

const lineEnd = (text: string, start: number): number => {
  const end = text.indexOf('\n', start);
  return end === -1 ? text.length : end;
};

const shorten = (text: string): string => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

/**
 * Splits a `---` YAML frontmatter block from a Markdown body. The fence is split here, never by a
 * library that guesses the language: `---js` and friends are rejected rather than evaluated.
 */
export const parseFrontmatter = (text: string, file: string): Frontmatter => {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const firstEnd = lineEnd(source, 0);
  const opening = source.slice(0, firstEnd).trimEnd();
  // `----…` is a Markdown thematic break, not a fence.
  if (!opening.startsWith('---') || opening.startsWith('----')) return { data: {}, body: source, bodyLine: 0 };
  if (opening !== '---') {
    throw fileError(
      file,
      `only YAML frontmatter is supported: the opening fence "${shorten(opening)}" names another language; start the file with a plain --- line`,
      { line: 1 },
    );
  }

  const yamlStart = firstEnd + 1;
  let start = yamlStart;
  let line = 1;
  while (start < source.length) {
    const end = lineEnd(source, start);
    line++;
    const fence = source.slice(start, end).trimEnd();
    if (fence === '---' || fence === '...') {
      const data = parseYaml(source.slice(yamlStart, start), file);
      return { data, body: source.slice(end + 1), bodyLine: line };
    }
    start = end + 1;
  }
  throw fileError(file, 'the frontmatter is never closed: add a --- line after the YAML', { line: 1 });
};

const parseYaml = (yaml: string, file: string): Record<string, unknown> => {
  const simple = parseSimpleYaml(yaml);
  if (simple !== undefined) return simple;
  let data: unknown;
  try {
    data = parse(yaml, yamlOptions);
  } catch (error) {
    const { reason, line } = explainYamlError(error, yaml);
    // The YAML starts on the file's second line, after the opening fence.
    throw fileError(file, `invalid YAML frontmatter: ${reason}`, { line: line === undefined ? 1 : line + 1, cause: error });
  }
  if (data === null || data === undefined) return {};
  if (!isRecord(data)) {
    throw fileError(file, `the frontmatter must be a mapping of keys such as "description: …", not ${describeValue(data)}`, {
      line: 2,
    });
  }
  return data;
};
