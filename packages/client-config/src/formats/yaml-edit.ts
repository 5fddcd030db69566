/**
 * YAML (Continue's config.yaml) edited through the `yaml` package's Document API, which keeps
 * comments and layout of everything it is not asked to change. Continue's servers are a list
 * (`mcpServers: [- name: …]`), so the entry's name is its `name` field, not a key.
 */
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { Document, YAMLSeq } from 'yaml';
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

const set = (text: string, container: readonly string[], name: string, value: EntryValue): string => {
  const document = parseDocument(text);
  const node = document.createNode({ name, ...value });
  const list = listOf(document, container);
  const index = indexIn(list, name);
  if (list === undefined) document.setIn(container, document.createNode([{ name, ...value }]));
  else if (index === -1) list.items.push(node);
  else list.items[index] = node;
  return document.toString();
};

const remove = (text: string, container: readonly string[], name: string): string => {
  const document = parseDocument(text);
  const list = listOf(document, container);
  const index = indexIn(list, name);
  if (list === undefined || index === -1) return text;
  list.items.splice(index, 1);
  // A list the entry leaves empty goes too: it was created for it.
  if (list.items.length === 0) document.deleteIn(container);
  return document.toString();
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
