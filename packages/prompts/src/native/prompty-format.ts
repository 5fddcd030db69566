/**
 * Prompty (microsoft/prompty at 75e4d0e5, its loader, chat parser and renderers): YAML frontmatter
 * whose `${file:…}` values are read in (prompty-references.ts), typed inputs (prompty-inputs.ts), and
 * a Jinja or Mustache body that renders whole and then splits into messages at its role lines
 * (role-sections.ts), `kind: thread` inputs spliced in as messages (prompty-threads.ts). System and
 * developer sections become user messages.
 */
import { randomBytes } from 'node:crypto';
import type { PromptArgument, TemplateEngine } from '@promptyard/core';
import { fileError } from '../formats/file-error.js';
import { parseFrontmatter } from '../formats/frontmatter.js';
import { keyLine } from '../formats/frontmatter-typos.js';
import { isRecord } from '../formats/value-shape.js';
import {
  extraFields,
  stringField,
  stripExtension,
  type NativeDefinition,
  type NativeFileInput,
  type RenderedPart,
} from './native-definition.js';
import { readPromptyInputs } from './prompty-inputs.js';
import { resolvePromptyReferences } from './prompty-references.js';
import { expandThreads, threadMarkers } from './prompty-threads.js';
import { splitRoleSections } from './role-sections.js';

/** Where a message's role-line attributes (`user[name="Alice"]:`) go in its content's `_meta`. */
const roleAttributesMetaKey = 'dev.promptyard/role-attributes';

const roleLines = /^([ \t]*#?[ \t]*)(assistant|developer|system|user)((?:\[\w+\s*=\s*[^\]\n]*\])?[ \t]*:[ \t]*)$/gim;

/**
 * An argument's text with its role lines marked, so that a value cannot start a message of its
 * own; the marker is taken out of the messages again. A JSON argument is marked in its strings.
 */
const guardRoleLines = (value: string, marker: string, isJson: boolean): string => {
  const mark = (text: string): string => text.replace(roleLines, `$1${marker}$2$3`);
  if (!isJson || !/(assistant|developer|system|user)(\[[^\]\n]*\])?[ \t]*:/i.test(value)) return mark(value);
  try {
    const walk = (item: unknown): unknown =>
      typeof item === 'string'
        ? mark(item)
        : Array.isArray(item)
          ? item.map(walk)
          : isRecord(item)
            ? Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, walk(inner)]))
            : item;
    return JSON.stringify(walk(JSON.parse(value)));
  } catch {
    return mark(value);
  }
};

/** `template` as v1 writes it (`template: mustache`, `{ type: … }`) and v2 (`{ format: mustache }`, `{ format: { kind: … } }`). */
const templateFormat = (template: unknown): string | undefined => {
  if (typeof template === 'string') return template;
  if (!isRecord(template)) return undefined;
  const format = template['format'] ?? template['type'];
  if (typeof format === 'string') return format;
  return isRecord(format) && typeof format['kind'] === 'string' ? format['kind'] : undefined;
};

/** The engine of the file's template format: Jinja by default (Prompty's `jinja2`, `nunjucks`), or Mustache. */
const engineFor = (data: Readonly<Record<string, unknown>>, input: NativeFileInput): TemplateEngine => {
  const format = templateFormat(Object.hasOwn(data, 'template') ? data['template'] : undefined)
    ?.trim()
    .toLowerCase();
  if (format === undefined || format === '' || format === 'jinja2' || format === 'jinja' || format === 'nunjucks') return input.jinja;
  const line = keyLine(input.text, 'template');
  if (format !== 'mustache')
    throw fileError(input.file, `template format "${format}" is not one Prompty renders: use jinja2 (the default) or mustache`, { line });
  if (input.mustache === undefined)
    throw fileError(input.file, 'Mustache templates need a "mustache" template engine, and none is configured', { line });
  return input.mustache;
};

/**
 * A Mustache partial (`{{> footer}}`) renders as empty text, as in Prompty's TypeScript and C#
 * runtimes (no partials passed): `validate` says so at its line. Python's chevron would read
 * `footer.mustache` from the working directory of the process.
 */
const partialWarnings = (body: string, bodyLine: number): { message: string; line: number }[] =>
  body.split('\n').flatMap((text, index) =>
    [...text.matchAll(/\{\{>\s*([^\s}]+)\s*\}\}/g)].map((match) => ({
      message: `Mustache partial ${match[0]} renders as empty text, as in Prompty's TypeScript and C# runtimes, which pass no partials: write the partial's text in place`,
      line: bodyLine + index + 1,
    })),
  );

/** Template variables the inputs do not declare, as optional arguments. */
const impliedArguments = (variables: readonly string[], declared: readonly PromptArgument[]): PromptArgument[] => {
  const names = new Set(declared.map((argument) => argument.name));
  return variables
    .filter((name) => !names.has(name) && names.add(name))
    .map((name) => ({ name, description: `Template variable "${name}"`, required: false }));
};

export const parsePromptyFormat = (input: NativeFileInput): NativeDefinition => {
  const frontmatter = parseFrontmatter(input.text, input.file);
  const { body, bodyLine } = frontmatter;
  const { data, warnings } = resolvePromptyReferences(frontmatter.data, {
    file: input.file,
    text: input.text,
    root: input.root,
    maxFileBytes: input.maxFileBytes ?? 100 * 1024,
  });
  const inputs = readPromptyInputs(data, input.file);
  // As Prompty does: the whole body renders first, then its role lines split it into messages,
  // so a loop can write messages (`{% for item in history %}{{ item.role }}:`).
  // Files a Jinja template loads (`{% extends %}`, `{% include %}`) are found in the prompt root the
  // caller names, the same one `${file:…}` references stay inside; without one they are refused.
  const engine = engineFor(data, input);
  const template = engine.compile(body, {
    file: input.file,
    lineOffset: bodyLine,
    jsonArguments: inputs.json,
    ...(input.root === undefined ? {} : { root: input.root }),
    ...(input.maxFileBytes === undefined ? {} : { maxFileBytes: input.maxFileBytes }),
  });
  const json = new Set(inputs.json);
  const render = async (
    args: Readonly<Record<string, string>>,
    options?: Parameters<typeof template.render>[1],
  ): Promise<RenderedPart[]> => {
    const marker = `\uE000${randomBytes(6).toString('hex')}\uE000`;
    const guarded = Object.fromEntries(Object.entries(args).map(([name, value]) => [name, guardRoleLines(value, marker, json.has(name))]));
    const threads = threadMarkers(inputs.threads);
    const text = await template.render({ ...guarded, ...Object.fromEntries(threads) }, options);
    const parts = splitRoleSections(text).map((part) => ({
      role: part.role,
      text: part.text.replaceAll(marker, ''),
      ...(part.attributes === undefined ? {} : { meta: { [roleAttributesMetaKey]: part.attributes } }),
    }));
    return threads.size === 0 ? parts : expandThreads(parts, threads, args);
  };
  const description = stringField(data, 'description');
  const title = stringField(data, 'name');
  const allWarnings = engine === input.mustache ? [...warnings, ...partialWarnings(body, bodyLine)] : warnings;
  return {
    id: stripExtension(input.path, '.prompty'),
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    arguments: [...inputs.declared, ...impliedArguments(template.variables, inputs.declared)],
    declared: inputs.declared.map((argument) => argument.name),
    sections: [{ role: 'system', variables: template.variables, render }],
    body,
    typos: inputs.typos,
    ...(allWarnings.length === 0 ? {} : { warnings: allWarnings }),
    meta: extraFields(data, ['description', 'name', 'sample', inputs.key ?? 'inputs']),
  };
};
