/**
 * JSON and JSONC (VS Code, Zed, Cursor … allow comments and trailing commas) edited in place with
 * `jsonc-parser`: its parse tree gives every node's offsets, and the edits here insert or cut exactly
 * one property's text, so comments, layout and every other entry stay byte for byte. (`modify` with
 * formatting reformats the neighbouring line, which would make an uninstall leave the file changed.)
 */
import { createScanner, findNodeAtLocation, parse, parseTree, printParseErrorCode } from 'jsonc-parser';
import type { Node, ParseError } from 'jsonc-parser';
import type { EntryValue, FormatEditor } from './format.js';
import { invalidFileError, notACollection } from './format.js';

const parseOptions = { allowTrailingComma: true, disallowComments: false } as const;

const lineColumn = (text: string, offset: number): string => {
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${(before.at(-1)?.length ?? 0) + 1}`;
};

const check = (text: string, file: string): void => {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, parseOptions);
  const first = errors[0];
  if (first !== undefined) throw invalidFileError(file, 'JSON', `${lineColumn(text, first.offset)}: ${printParseErrorCode(first.error)}`);
  if (text.trim() !== '' && (typeof value !== 'object' || value === null || Array.isArray(value)))
    throw invalidFileError(file, 'JSON', 'the top level must be an object');
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const rootOf = (text: string): Node | undefined => parseTree(text, [], parseOptions);

/** The indentation one level adds in this file: its first indented line's, else two spaces. */
const indentUnit = (text: string): string => {
  const indented = /\n([ \t]+)["/}\]]/.exec(text)?.[1];
  if (indented === undefined) return '  ';
  return indented.startsWith('\t') ? '\t' : ' '.repeat(Math.min(indented.length, 8));
};

/** The leading whitespace of the line holding `offset`. */
const lineIndent = (text: string, offset: number): string => {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
};

/** JSON laid out like a hand-written config: objects one key a line, short lists of strings on one line. */
const serialize = (value: unknown, unit: string, indent: string): string => {
  if (Array.isArray(value)) {
    const inline = `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
    if (value.every((item) => typeof item !== 'object') && inline.length <= 100) return inline;
  }
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const inner = indent + unit;
  const items = Array.isArray(value)
    ? value.map((item) => `${inner}${serialize(item, unit, inner)}`)
    : Object.entries(value).map(([key, item]) => `${inner}${JSON.stringify(key)}: ${serialize(item, unit, inner)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return items.length === 0 ? `${open}${close}` : `${open}\n${items.join(',\n')}\n${indent}${close}`;
};

/** Where the text after `offset` on its line ends: past a comma and a line comment, if any. */
const afterLineTail = (text: string, offset: number): { readonly end: number; readonly comma: boolean } => {
  const tail = /^[ \t]*(,)?[ \t]*(\/\/[^\n]*|\/\*.*?\*\/)?/.exec(text.slice(offset));
  return { end: offset + (tail?.[0].length ?? 0), comma: tail?.[1] !== undefined };
};

// jsonc-parser's SyntaxKind is a const enum, which this build cannot import: its values, from its typings.
const commaToken = 5;
/** Line and block comments, line breaks, whitespace. */
const trivia: ReadonlySet<number> = new Set([12, 13, 14, 15]);

/** The offset of the comma token that follows `offset` (past whitespace and comments, never inside one), if that is what follows. */
const commaAfter = (text: string, offset: number): number | undefined => {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  let token = scanner.scan();
  while (trivia.has(token)) token = scanner.scan();
  return token === commaToken ? scanner.getTokenOffset() : undefined;
};

/** Inserts `"key": value` as the last property of `object`, on its own line. */
const insertProperty = (text: string, object: Node, key: string, value: unknown): string => {
  const unit = indentUnit(text);
  const outer = lineIndent(text, object.offset);
  const inner = outer + unit;
  const property = `${JSON.stringify(key)}: ${serialize(value, unit, inner)}`;
  const last = object.children?.at(-1);
  if (last === undefined) {
    const open = object.offset + 1;
    const close = object.offset + object.length - 1;
    if (/^\s*$/.test(text.slice(open, close))) return `${text.slice(0, open)}\n${inner}${property}\n${outer}${text.slice(close)}`;
    // Only comments (commented-out entries): they stay; the property goes on its own line after the brace's line.
    const lineEnd = afterLineTail(text, open).end;
    const at = text[lineEnd] === '\n' ? lineEnd : open;
    return `${text.slice(0, at)}\n${inner}${property}${text.slice(at)}`;
  }
  const lastEnd = last.offset + last.length;
  const tail = afterLineTail(text, lastEnd);
  // A trailing comma after the last property is this file's style: the new last property keeps it.
  if (tail.comma) return `${text.slice(0, tail.end)}\n${inner}${property},${text.slice(tail.end)}`;
  return `${text.slice(0, lastEnd)},${text.slice(lastEnd, tail.end)}\n${inner}${property}${text.slice(tail.end)}`;
};

/** Removes the text between `from` and `to`. */
const cut = (text: string, from: number, to: number): string => `${text.slice(0, from)}${text.slice(to)}`;

/**
 * Cuts one property (a child of `object`) with its line (through a comment ending that line) and the
 * comma that separated it — the comma token itself, found by the scanner, so a comma inside a comment stays.
 */
const cutProperty = (text: string, object: Node, property: Node): string => {
  const siblings = object.children ?? [];
  const index = siblings.indexOf(property);
  const lineStart = text.lastIndexOf('\n', property.offset - 1);
  const aloneOnLine = /^[ \t]*$/.test(text.slice(lineStart + 1, property.offset));
  const start = aloneOnLine ? lineStart : property.offset;
  const end = property.offset + property.length;
  const comma = commaAfter(text, end);
  if (comma !== undefined) {
    // Its own comma: cut through it (and the comment after it on that line); comments before it stay.
    const tail = afterLineTail(text, comma + 1).end;
    if (/^[ \t]*$/.test(text.slice(end, comma))) return cut(text, start, tail);
    return cut(cut(text, comma, tail), start, end);
  }
  const rest = cut(text, start, afterLineTail(text, end).end);
  const previous = siblings[index - 1];
  if (previous === undefined) {
    // The only property: an object left with nothing but whitespace closes as `{}`.
    const open = object.offset + 1;
    const close = object.offset + object.length - 1 - (afterLineTail(text, end).end - start);
    return /^\s*$/.test(rest.slice(open, close)) ? cut(rest, open, close) : rest;
  }
  // The last property: the comma before it goes.
  const previousComma = commaAfter(text, previous.offset + previous.length);
  return previousComma === undefined ? rest : cut(rest, previousComma, previousComma + 1);
};

/** The object at `path`, created (as `{}`) level by level when missing. */
const ensureObject = (text: string, path: readonly string[]): { readonly text: string; readonly node: Node } => {
  let current = text.trim() === '' ? '{}\n' : text;
  for (let depth = 0; depth <= path.length; depth++) {
    const root = rootOf(current) as Node;
    const node = depth === 0 ? root : findNodeAtLocation(root, path.slice(0, depth) as string[]);
    if (node !== undefined && node.type !== 'object') throw notACollection(path.slice(0, depth), 'an object');
    if (node === undefined) {
      const parent = depth === 1 ? root : (findNodeAtLocation(root, path.slice(0, depth - 1) as string[]) as Node);
      current = insertProperty(current, parent, path[depth - 1] as string, {});
    }
  }
  return { text: current, node: (path.length === 0 ? rootOf(current) : findNodeAtLocation(rootOf(current) as Node, [...path])) as Node };
};

const get = (text: string, container: readonly string[], name: string): unknown => {
  const value: unknown = parse(text, [], parseOptions);
  let current: unknown = value;
  for (const key of [...container, name]) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
};

const set = (text: string, container: readonly string[], name: string, value: EntryValue): string => {
  const ensured = ensureObject(text, container);
  const existing = findNodeAtLocation(ensured.node, [name]);
  if (existing === undefined) return insertProperty(ensured.text, ensured.node, name, value);
  const unit = indentUnit(ensured.text);
  const indent = lineIndent(ensured.text, existing.parent?.offset ?? existing.offset);
  const next = ensured.text;
  return `${next.slice(0, existing.offset)}${serialize(value, unit, indent)}${next.slice(existing.offset + existing.length)}`;
};

const remove = (text: string, container: readonly string[], name: string): string => {
  let current = text;
  const path = [...container, name];
  // Cut the entry, then each container it leaves empty (they were created for it).
  for (let depth = path.length; depth > 0; depth--) {
    const root = rootOf(current);
    const node = root === undefined ? undefined : findNodeAtLocation(root, path.slice(0, depth));
    const property = node?.parent;
    const object = property?.parent;
    if (node === undefined || property === undefined || object === undefined) return current;
    // A container is cut only when nothing is left in it, not even a comment.
    const inside = current.slice(node.offset + 1, node.offset + node.length - 1);
    if (depth < path.length && ((node.children?.length ?? 0) > 0 || /\S/.test(inside))) return current;
    current = cutProperty(current, object, property);
  }
  return current;
};

/** The document without the entry, as data (collections it empties go too, as `remove` cuts them). */
const without = (text: string, container: readonly string[], name: string): unknown => {
  const document: unknown = parse(text, [], parseOptions) ?? {};
  const path = [...container, name];
  for (let depth = path.length; depth > 0; depth--) {
    let parent: unknown = document;
    for (const key of path.slice(0, depth - 1)) parent = isObject(parent) ? parent[key] : undefined;
    const key = path[depth - 1] as string;
    if (!isObject(parent) || !(key in parent)) break;
    const value = parent[key];
    if (depth < path.length && !(isObject(value) && Object.keys(value).length === 0)) break;
    delete parent[key];
  }
  return document;
};

export const jsonEditor: FormatEditor = { emptyText: '{}\n', check, get, set, remove, without };
