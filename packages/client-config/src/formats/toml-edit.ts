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

/** Cuts the lines of a section written by `sectionText`: its header and its key lines (and sub-sections, if someone added them). */
const cutSection = (text: string, path: readonly string[]): string | undefined => {
  const lines = text.split('\n');
  const own = new RegExp(`^\\s*${headerPattern(path)}\\]\\s*$`);
  const sub = new RegExp(`^\\s*${headerPattern(path)}\\.`);
  const start = lines.findIndex((line) => own.test(line));
  if (start === -1) return undefined;
  let end = start + 1;
  // Key lines and the entry's own sub-sections; a blank line, a comment or another section ends it.
  while (end < lines.length && /\S/.test(lines[end] as string) && !/^\s*#/.test(lines[end] as string)) {
    const line = lines[end] as string;
    if (/^\s*\[/.test(line) && !sub.test(line)) break;
    end++;
  }
  const from = start > 0 && (lines[start - 1] as string).trim() === '' ? start - 1 : start;
  return [...lines.slice(0, from), ...lines.slice(end)].join('\n');
};

const remove = (text: string, container: readonly string[], name: string): string => {
  if (get(text, container, name) === undefined) return text;
  const cut = cutSection(text, [...container, name]);
  if (cut !== undefined && get(cut, container, name) === undefined) return cut;
  const document = withEntry(text, container, name, undefined);
  // A collection the entry leaves empty goes too, as the JSON and YAML editors do.
  const first = container[0];
  if (first !== undefined && container.length === 1 && isTable(document[first]) && Object.keys(document[first]).length === 0)
    delete document[first];
  return patch(text, document);
};

export const tomlEditor: FormatEditor = { emptyText: '', check, get, set, remove };
