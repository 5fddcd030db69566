/**
 * TOML (Codex's config.toml) edited in place. A new entry is appended as its own
 * `[mcp_servers.<name>]` section, the shape Codex's documentation and `codex mcp add` write:
 * `@decimalturn/toml-patch` (a maintained comment-preserving patcher) would add it as a dotted
 * inline table under whatever table comes first, which no Codex user would recognise. Updating an
 * entry, or one written some other way (inline, dotted), goes through toml-patch, which changes
 * only the values that differ and keeps comments. Removing a section this module wrote cuts its
 * lines; anything else is removed by toml-patch.
 */
import { parse, patch } from '@decimalturn/toml-patch';
import { isDeepStrictEqual } from 'node:util';
import { PromptyardError } from '@promptyard/core';
import type { EntryValue, FormatEditor } from './format.js';
import { invalidFileError, notACollection } from './format.js';

type Table = Record<string, unknown>;

const isTable = (value: unknown): value is Table => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Values as data: the parser's tables are objects of its own class. */
const asData = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

const check = (text: string, file: string): void => {
  try {
    parse(text);
  } catch (error) {
    throw invalidFileError(file, 'TOML', (error as Error).message.split('\n')[0] ?? 'parse error');
  }
};

/** A key as TOML writes it: bare when it can be, else a basic string (JSON's escapes are TOML's). */
const tomlKey = (key: string): string => (/^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key));

/** Strings, string lists and string maps (inline, as Codex's docs write `env = { K = "V" }`): all an entry holds. */
const tomlValue = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map((item) => tomlValue(item)).join(', ')}]`;
  if (isTable(value)) {
    const pairs = Object.entries(value).map(([key, item]) => `${tomlKey(key)} = ${tomlValue(item)}`);
    return pairs.length === 0 ? '{}' : `{ ${pairs.join(', ')} }`;
  }
  return JSON.stringify(value);
};

const sectionText = (header: readonly string[], table: EntryValue): string =>
  [
    `[${header.map((part) => tomlKey(part)).join('.')}]`,
    ...Object.entries(table).map(([key, value]) => `${tomlKey(key)} = ${tomlValue(value)}`),
  ].join('\n');

const get = (text: string, container: readonly string[], name: string): unknown => {
  let current: unknown = parse(text);
  for (const key of [...container, name]) current = isTable(current) ? current[key] : undefined;
  return current;
};

/** The parsed document with the entry at `container`.`name` set (or deleted when `value` is undefined). */
const withEntry = (text: string, container: readonly string[], name: string, value: EntryValue | undefined): Table => {
  const document = parse(text) as Table;
  let table = document;
  for (const [depth, key] of container.entries()) {
    if (table[key] === undefined) table[key] = {};
    if (!isTable(table[key])) throw notACollection(container.slice(0, depth + 1), 'a table');
    table = table[key];
  }
  if (value === undefined) delete table[name];
  else table[name] = value;
  return document;
};

const set = (text: string, container: readonly string[], name: string, value: EntryValue): string => {
  const document = withEntry(text, container, name, value);
  if (get(text, container, name) === undefined) {
    const base = text === '' || text.endsWith('\n') ? text : `${text}\n`;
    const appended = `${base}${base.trim() === '' ? '' : '\n'}${sectionText([...container, name], value)}\n`;
    // Appending fails only when the container is itself an inline table; toml-patch handles that one.
    try {
      if (isDeepStrictEqual(asData(get(appended, container, name)), asData(value))) return appended;
    } catch {
      // falls through to the patcher
    }
  }
  return patch(text, document);
};

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The header of this entry's section as `sectionText` writes it (and the prefix of its sub-sections). */
const headerPattern = (path: readonly string[]): string => escapeRegExp(`[${path.map((part) => tomlKey(part)).join('.')}`);

/**
 * Where a cut of the section starting at line `start` may end: before each later table header that is
 * not one of the entry's own sub-sections (and at the end of the file), leaving the comments and blank
 * lines just above that header to the table they introduce. A line starting with `[` can also be a
 * value inside a multi-line array or string, so every candidate is only a guess the caller verifies.
 */
const sectionEnds = (lines: readonly string[], start: number, sub: RegExp): number[] => {
  const ends: number[] = [];
  for (let index = start + 1; index <= lines.length; index++) {
    const line = lines[index];
    if (line !== undefined && !(/^\s*\[/.test(line) && !sub.test(line))) continue;
    let end = index;
    while (end > start + 1 && /^\s*(#.*)?$/.test(lines[end - 1] as string)) end--;
    ends.push(end);
  }
  return ends;
};

/** The document without the entry, as data: what a removal must leave (a collection it empties goes too). */
const without = (text: string, container: readonly string[], name: string): unknown => {
  const document = withEntry(text, container, name, undefined);
  const first = container[0];
  if (first !== undefined && container.length === 1 && isTable(document[first]) && Object.keys(document[first]).length === 0)
    delete document[first];
  return asData(document);
};

const parsesTo = (text: string, expected: unknown): boolean => {
  try {
    return isDeepStrictEqual(asData(parse(text)), expected);
  } catch {
    return false;
  }
};

/** Cuts the lines of the entry's `[…]` section (and its sub-sections), when the result is exactly the document without it. */
const cutSection = (text: string, path: readonly string[], expected: unknown): string | undefined => {
  const lines = text.split('\n');
  const own = new RegExp(`^\\s*${headerPattern(path)}\\]\\s*(#.*)?$`);
  const sub = new RegExp(`^\\s*${headerPattern(path)}\\.`);
  const start = lines.findIndex((line) => own.test(line));
  if (start === -1) return undefined;
  const from = start > 0 && (lines[start - 1] as string).trim() === '' ? start - 1 : start;
  for (const end of sectionEnds(lines, start, sub)) {
    const cut = [...lines.slice(0, from), ...lines.slice(end)].join('\n');
    if (parsesTo(cut, expected)) return cut;
  }
  return undefined;
};

const remove = (text: string, container: readonly string[], name: string): string => {
  if (get(text, container, name) === undefined) return text;
  const expected = without(text, container, name);
  const cut = cutSection(text, [...container, name], expected);
  if (cut !== undefined) return cut;
  let patched: string | undefined;
  try {
    patched = patch(text, expected as Table);
  } catch {
    patched = undefined;
  }
  if (patched === undefined || !parsesTo(patched, expected))
    throw new PromptyardError(
      'CONFIG_INVALID',
      `the entry "${name}" could not be removed without changing anything else; it was left untouched. Remove its [${[...container, name].join('.')}] table by hand.`,
    );
  return patched;
};

export const tomlEditor: FormatEditor = { emptyText: '', check, get, set, remove, without };
