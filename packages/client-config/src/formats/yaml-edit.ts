/**
 * YAML (Continue's config.yaml) edited as text: the `yaml` package's parse gives each list item's
 * offsets, and an entry is spliced in (laid out as the item before it) or cut out, so every other
 * line stays byte for byte. (Its `toString()` re-lays the whole file out: flow lists, indentation,
 * comment spacing, long strings.) Layouts the splice does not handle (flow lists, a nested list)
 * go through the Document API, which keeps the data and comments but not all of the layout. Continue's servers are a list
 * (`mcpServers: [- name: …]`), so the entry's name is its `name` field, not a key.
 */
import { Document, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { YAMLMap, YAMLSeq } from 'yaml';
import type { EntryValue, FormatEditor } from './format.js';
import { invalidFileError, notACollection } from './format.js';

const check = (text: string, file: string): void => {
  const document = parseDocument(text);
  const first = document.errors[0];
  if (first !== undefined) throw invalidFileError(file, 'YAML', first.message.split('\n')[0] ?? 'parse error');
  if (document.contents !== null && !isMap(document.contents)) throw invalidFileError(file, 'YAML', 'the top level must be a mapping');
};

const listOf = (document: Document, container: readonly string[]): YAMLSeq | undefined => {
  const node: unknown = document.getIn(container, true);
  if (node === undefined || node === null || (isScalar(node) && node.value === null)) return undefined;
  if (!isSeq(node)) throw notACollection(container, 'a list');
  return node;
};

const indexIn = (list: YAMLSeq | undefined, name: string): number =>
  list?.items.findIndex((item) => isMap(item) && item.get('name') === name) ?? -1;

const get = (text: string, container: readonly string[], name: string): unknown => {
  const list = listOf(parseDocument(text), container);
  const index = indexIn(list, name);
  if (index === -1) return undefined;
  // The name is the entry's key here, as the key is in the other formats: the value is the rest.
  const { name: _name, ...value } = (list?.items[index] as { toJSON(): Record<string, unknown> }).toJSON();
  return value;
};

/** The column of `offset` in `text`. */
const columnOf = (text: string, offset: number): number => offset - (text.lastIndexOf('\n', offset - 1) + 1);

/** `value` as a block mapping whose first line starts where the caller puts it and whose next lines are indented by `indent`. */
const blockText = (value: Record<string, unknown>, indent: number): string =>
  new Document(value)
    .toString({ lineWidth: 0 })
    .split('\n')
    .map((line, index) => (index === 0 || line === '' ? line : `${' '.repeat(indent)}${line}`))
    .join('\n');

/** A block list (`- …` items) of block mappings: the shape spliced as text. Anything else is edited through the Document API. */
const isBlockList = (list: YAMLSeq | undefined): list is YAMLSeq =>
  list !== undefined &&
  list.flow !== true &&
  list.range !== undefined &&
  list.range !== null &&
  list.items.every((item) => isMap(item) && item.flow !== true && item.range);

/** The document rewritten by the `yaml` package: only for layouts the splicing does not handle. */
const rewrite = (document: Document): string => document.toString();

const spliceSet = (text: string, list: YAMLSeq, index: number, item: Record<string, unknown>): string => {
  const last = list.items.at(index === -1 ? -1 : index) as YAMLMap;
  const [start, end] = last.range as [number, number, number];
  const content = columnOf(text, start);
  const block = blockText(item, content);
  if (index !== -1)
    return `${text.slice(0, start)}${text.slice(start, end).endsWith('\n') ? block : block.replace(/\n$/, '')}${text.slice(end)}`;
  // A new last item, laid out as the last one is: the dash in its column, the content in its.
  const dashLine = text.lastIndexOf('\n', start - 1) + 1;
  const dash = /^[ \t]*-[ \t]*/.exec(text.slice(dashLine, start))?.[0] ?? '- ';
  const before = text.slice(0, end).endsWith('\n') ? text.slice(0, end) : `${text.slice(0, end)}\n`;
  return `${before}${dash}${block}${text.slice(end)}`;
};

const set = (text: string, container: readonly string[], name: string, value: EntryValue): string => {
  const document = parseDocument(text);
  const item = { name, ...value };
  const list = listOf(document, container);
  const index = indexIn(list, name);
  if (isBlockList(list) && list.items.length > 0) return spliceSet(text, list, index, item);
  if (
    list === undefined &&
    container.length === 1 &&
    !document.has(container[0]) &&
    isMap(document.contents) &&
    document.contents.flow !== true
  ) {
    const base = text === '' || text.endsWith('\n') ? text : `${text}\n`;
    return `${base}${new Document({ [container[0] as string]: [item] }).toString()}`;
  }
  const node = document.createNode(item);
  if (list === undefined) document.setIn(container, document.createNode([item]));
  else if (index === -1) list.items.push(node);
  else list.items[index] = node;
  return rewrite(document);
};

/** Cuts the lines of item `index` (the dash's line through the item's end); the only item takes its `key:` line along. */
const spliceRemove = (text: string, document: Document, container: readonly string[], list: YAMLSeq, index: number): string | undefined => {
  const [start, end] = (list.items[index] as YAMLMap).range as [number, number, number];
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const atEnd = !text.slice(0, end).endsWith('\n');
  if (list.items.length > 1) return `${text.slice(0, atEnd ? Math.max(lineStart - 1, 0) : lineStart)}${text.slice(end)}`;
  if (container.length !== 1 || !isMap(document.contents)) return undefined;
  const pair = document.contents.items.find((candidate) => isScalar(candidate.key) && candidate.key.value === container[0]);
  const keyRange = isScalar(pair?.key) ? pair.key.range : undefined;
  if (keyRange === undefined || keyRange === null) return undefined;
  const keyLine = text.lastIndexOf('\n', keyRange[0] - 1) + 1;
  return `${text.slice(0, atEnd ? Math.max(keyLine - 1, 0) : keyLine)}${text.slice(end)}`;
};

const remove = (text: string, container: readonly string[], name: string): string => {
  const document = parseDocument(text);
  const list = listOf(document, container);
  const index = indexIn(list, name);
  if (list === undefined || index === -1) return text;
  const cut = isBlockList(list) ? spliceRemove(text, document, container, list, index) : undefined;
  if (cut !== undefined) return cut;
  list.items.splice(index, 1);
  // A list the entry leaves empty goes too: it was created for it.
  if (list.items.length === 0) document.deleteIn(container);
  return rewrite(document);
};

/** The document without the entry, as data (a list it empties goes too, as `remove` deletes it). */
const without = (text: string, container: readonly string[], name: string): unknown => {
  const document = parseDocument(text);
  const list = listOf(document, container);
  const index = indexIn(list, name);
  if (list !== undefined && index !== -1) {
    list.items.splice(index, 1);
    if (list.items.length === 0) document.deleteIn(container);
  }
  return document.toJS() ?? {};
};

export const yamlEditor: FormatEditor = { emptyText: '', check, get, set, remove, without };
