import type { DiagnosticSink, Logger, PromptEntry, TemplateEngine } from '@promptyard/core';
import { fileError } from './file-error.js';
import { describeKeyTypo, keyLine } from './frontmatter-typos.js';
import { createNativeEntry } from '../native/native-entry.js';
import { parsePromptyFormat } from '../native/prompty-format.js';

export interface ParsePromptyFileOptions {
  /** Decoded file content. */
  readonly text: string;
  /** Absolute path: the entry's origin and the file named in errors. */
  readonly file: string;
  /** The prompt's name in its folder (its path without `.prompty`), as a Markdown prompt's. */
  readonly name: string;
  /** Path relative to the prompt folder. */
  readonly source: string;
  /** Must contain `jinja` to render the file (and `mustache` for a Mustache template). */
  readonly engines: Readonly<Record<string, TemplateEngine>>;
  readonly maxFileBytes: number;
  /** Warned to: frontmatter keys that look like typos, values that are not served. */
  readonly logger?: Logger;
  /** Receives the same warnings as records. */
  readonly diagnostics?: DiagnosticSink;
}

/**
 * A `.prompty` file inside a prompt folder: read as the Prompty format (typed inputs, a Jinja or
 * Mustache body, role sections as messages) and named like the Markdown prompts beside it.
 */
export const parsePromptyFile = (options: ParsePromptyFileOptions): PromptEntry => {
  const { file, source, engines } = options;
  const jinja = Object.hasOwn(engines, 'jinja') ? engines['jinja'] : undefined;
  if (jinja === undefined) throw fileError(file, 'Prompty files render with Jinja, and no "jinja" template engine is configured');
  const mustache = Object.hasOwn(engines, 'mustache') ? engines['mustache'] : undefined;
  const text = options.text.replace(/\r\n/g, '\n');
  // File references resolve inside the prompt folder (the file's path minus its source path).
  const root = file.slice(0, Math.max(0, file.length - source.length - 1));
  const { maxFileBytes } = options;
  const definition = parsePromptyFormat({
    text,
    file,
    path: source,
    jinja,
    ...(mustache === undefined ? {} : { mustache }),
    root,
    maxFileBytes,
  });
  const warn = (code: 'unknown-key' | 'format-warning', message: string, line: number | undefined): void =>
    options.diagnostics?.({ file, ...(line === undefined ? {} : { line }), severity: 'warning', code, message });
  for (const typo of definition.typos ?? []) {
    const line = keyLine(text, typo.key);
    options.logger?.warn(describeKeyTypo(typo), { file, line, key: typo.key });
    warn('unknown-key', describeKeyTypo(typo), line);
  }
  for (const { message, line } of definition.warnings ?? []) {
    options.logger?.warn(message, { file, line });
    warn('format-warning', message, line);
  }
  const entry = createNativeEntry({ format: 'prompty', definition, file, source, prefix: '', root, maxFileBytes: options.maxFileBytes });
  return { ...entry, name: options.name };
};
