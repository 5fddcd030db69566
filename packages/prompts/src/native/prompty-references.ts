/**
 * Prompty's `${protocol:value}` frontmatter values, resolved as its loader resolves them (microsoft/prompty
 * runtime/typescript/packages/core/src/core/loader.ts and runtime/python/prompty/prompty/core/loader.py
 * at 75e4d0e5): a value that is exactly `${file:path}` becomes the file's content (JSON and YAML
 * parsed, other text as a string), and `${env:NAME:default}` its default. The server's environment
 * is never read: frontmatter reaches clients (`_meta`, descriptions), so `${env:NAME}` without a
 * default stays as written, with a warning.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, relative, resolve, sep } from 'node:path';
import type * as Yaml from 'yaml';
import { isPathInside } from '@promptyard/core';
import { fileError } from '../formats/file-error.js';
import { keyLine } from '../formats/frontmatter-typos.js';
import { isRecord } from '../formats/value-shape.js';

export interface ReferenceContext {
  /** The .prompty file: references resolve relative to its folder. */
  readonly file: string;
  /** The file's text, to name the line of the frontmatter key in errors. */
  readonly text: string;
  /** Referenced files must lie inside it (by name and through symlinks). */
  readonly root: string | undefined;
  readonly maxFileBytes: number;
}

export interface ResolvedReferences {
  readonly data: Readonly<Record<string, unknown>>;
  /** What `validate` should say: references left as written. */
  readonly warnings: readonly { readonly message: string; readonly line?: number }[];
}

/** How deep a referenced file's own references may go (a file that names itself stops here). */
const maxDepth = 8;

const referencePattern = /^\$\{([^:}]*):([\s\S]*)\}$/;

interface Walk {
  readonly context: ReferenceContext;
  readonly warnings: { message: string; line?: number }[];
}

/** The frontmatter with every mapping value that is a whole `${file:…}` or `${env:…}` replaced. */
export const resolvePromptyReferences = (data: Readonly<Record<string, unknown>>, context: ReferenceContext): ResolvedReferences => {
  const walk: Walk = { context, warnings: [] };
  const resolved = resolveRecord(data, '', walk, 0);
  return { data: resolved, warnings: walk.warnings };
};

const resolveRecord = (record: Readonly<Record<string, unknown>>, path: string, walk: Walk, depth: number): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(record).map(([key, value]) => [key, resolveValue(value, path === '' ? key : `${path}.${key}`, walk, depth)]),
  );

/** As Prompty's loader visits them: strings that are mapping values, in mappings at any depth (lists' mappings too). */
const resolveValue = (value: unknown, path: string, walk: Walk, depth: number): unknown => {
  if (typeof value === 'string') return resolveString(value, path, walk, depth);
  if (Array.isArray(value))
    return value.map((item, index) =>
      isRecord(item) || Array.isArray(item) ? resolveValue(item, `${path}[${index}]`, walk, depth) : item,
    );
  return isRecord(value) ? resolveRecord(value, path, walk, depth) : value;
};

const resolveString = (value: string, path: string, walk: Walk, depth: number): unknown => {
  const match = referencePattern.exec(value);
  if (match === null) return value;
  const protocol = (match[1] ?? '').toLowerCase();
  const rest = match[2] ?? '';
  if (protocol === 'env') return resolveEnv(value, rest, path, walk);
  if (protocol !== 'file') return value;
  const content = readReference(rest, path, walk.context);
  if (depth + 1 >= maxDepth) return content;
  return isRecord(content) || Array.isArray(content) ? resolveValue(content, path, walk, depth + 1) : content;
};

/** `${env:NAME:default}` is its default (Prompty reads the environment first; Promptyard never does). */
const resolveEnv = (value: string, rest: string, path: string, walk: Walk): string => {
  const colon = rest.indexOf(':');
  if (colon !== -1) return rest.slice(colon + 1);
  const line = keyLine(walk.context.text, path.split(/[.[]/)[0] ?? path);
  walk.warnings.push({
    message: `${value} (frontmatter key "${path}") is not served: the server's environment never reaches clients; write \${env:${rest}:default} to serve a default`,
    ...(line === undefined ? {} : { line }),
  });
  return value;
};

/** The referenced file's content, or a file error naming the key and what to change. */
const readReference = (reference: string, path: string, context: ReferenceContext): unknown => {
  const { file, root, maxFileBytes } = context;
  const line = keyLine(context.text, path.split(/[.[]/)[0] ?? path);
  const fail = (reason: string): Error => fileError(file, `frontmatter key "${path}": \${file:${reference}} ${reason}`, { line });
  if (root === undefined) throw fail('cannot be read here: file references need the prompt folder');
  const target = resolve(dirname(file), reference);
  if (!isPathInside(root, target)) throw fail(`resolves outside the prompt folder ${root}: keep referenced files inside it`);
  const hidden = relative(root, target)
    .split(sep)
    .find((segment) => segment.startsWith('.'));
  if (hidden !== undefined)
    throw fail(`names a hidden file or folder (${hidden}): frontmatter reaches clients, so Promptyard does not read those`);
  if (!existsSync(target)) throw fail(`names a file that does not exist (${target}): create it or fix the path`);
  const real = realpathSync(target);
  if (!isPathInside(realpathSync(root), real))
    throw fail(`leads outside the prompt folder through a symlink (to ${real}): copy the file in`);
  const info = statSync(real);
  if (!info.isFile()) throw fail('is not a file');
  if (info.size > maxFileBytes) throw fail(`is over the limit of ${maxFileBytes} bytes ([limits] max_file_bytes)`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(real));
  } catch {
    throw fail('is not UTF-8 text');
  }
  return parseContent(text, extname(real).toLowerCase(), fail);
};

// Core schema and a low alias cap, as for frontmatter itself.
let yamlParse: typeof Yaml.parse | undefined;
const parseYaml = (text: string): unknown => {
  yamlParse ??= (createRequire(import.meta.url)('yaml') as typeof Yaml).parse;
  return yamlParse(text, { schema: 'core', uniqueKeys: true, maxAliasCount: 10, logLevel: 'error' });
};

/** JSON and YAML parsed (as Prompty's Python loader; its TypeScript one keeps YAML as text), anything else as text. */
const parseContent = (text: string, extension: string, fail: (reason: string) => Error): unknown => {
  try {
    if (extension === '.json') return JSON.parse(text) as unknown;
    if (extension === '.yaml' || extension === '.yml') return parseYaml(text);
  } catch (error) {
    throw fail(
      `is not valid ${extension === '.json' ? 'JSON' : 'YAML'}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
  }
  return text;
};
