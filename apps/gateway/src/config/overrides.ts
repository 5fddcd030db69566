import { closestNames, didYouMean, isTable } from '@promptyard/core';
import { NAME_CHARACTERS, noOverrides } from '@promptyard/router';
import type { Overrides, PromptOverride, ToolOverride } from '@promptyard/router';
import { PROMPT_OVERRIDE_KEYS, TOOL_OVERRIDE_KEYS } from './schema.js';
import type { Problem } from './server-entry.js';
import { ANNOTATION_TYPES } from './values.js';

// `[servers.<id>.overrides]` and `[profiles.<name>.servers.<id>.overrides]`: what the gateway changes of
// a server's tools and prompts, checked, and renames that would make two items share a name refused.

/** Where one overrides table sits: its path from the top of the document, how to find a line, where problems go. */
export interface OverrideScope {
  /** `["servers", "github", "overrides"]`. */
  readonly path: readonly string[];
  readonly line: (path: readonly string[]) => number;
  readonly problems: Problem[];
}

type Kind = 'tools' | 'prompts';

const ANNOTATIONS: Readonly<Record<string, 'string' | 'boolean'>> = ANNOTATION_TYPES;

/** `[servers.github.overrides.tools.search_issues]`: how messages name a table. */
export const tableName = (path: readonly string[]): string => `[${path.join('.')}]`;

/** Every key of `table` not in `known`, reported with its line, the closest known one and the list of them. */
export const unknownKeys = (
  table: Record<string, unknown>,
  known: readonly string[],
  at: readonly string[],
  scope: { readonly line: (path: readonly string[]) => number; readonly problems: Problem[] },
): void => {
  for (const key of Object.keys(table)) {
    if (known.includes(key)) continue;
    const hint = didYouMean(closestNames(key, known, 1), 'aside');
    scope.problems.push({
      line: scope.line([...at, key]),
      message: `unknown key "${key}" in ${tableName(at)}${hint}; allowed keys: ${known.join(', ')}`,
    });
  }
};

const readString = (table: Record<string, unknown>, key: string, at: readonly string[], scope: OverrideScope): string | undefined => {
  const value = table[key];
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  scope.problems.push({
    line: scope.line([...at, key]),
    message: `${tableName(at)} ${key} must be a string, got ${JSON.stringify(value)}`,
  });
  return undefined;
};

const readName = (table: Record<string, unknown>, at: readonly string[], scope: OverrideScope): string | undefined => {
  const name = readString(table, 'name', at, scope);
  if (name === undefined || NAME_CHARACTERS.test(name)) return name;
  scope.problems.push({
    line: scope.line([...at, 'name']),
    message: `${tableName(at)} name ${JSON.stringify(name)} must be letters, digits, "_", "-" or "." (names allow no others)`,
  });
  return undefined;
};

const readAnnotations = (
  table: Record<string, unknown>,
  at: readonly string[],
  scope: OverrideScope,
): Record<string, unknown> | undefined => {
  const value = table['annotations'];
  if (value === undefined) return undefined;
  const where = [...at, 'annotations'];
  if (!isTable(value)) {
    scope.problems.push({
      line: scope.line(where),
      message: `${tableName(at)} annotations must be a table such as { readOnlyHint = true }, got ${JSON.stringify(value)}`,
    });
    return undefined;
  }
  const known = Object.keys(ANNOTATIONS);
  let valid = true;
  for (const [key, item] of Object.entries(value)) {
    const type = ANNOTATIONS[key];
    if (type === undefined) {
      const hint = didYouMean(closestNames(key, known, 1), 'aside');
      scope.problems.push({
        line: scope.line([...where, key]),
        message: `${tableName(at)} annotations: unknown annotation "${key}"${hint}; MCP tool annotations: ${known.join(', ')}`,
      });
      valid = false;
    } else if (typeof item !== type) {
      scope.problems.push({
        line: scope.line([...where, key]),
        message: `${tableName(at)} annotations.${key} must be ${type === 'boolean' ? 'true or false' : 'a string'}, got ${JSON.stringify(item)}`,
      });
      valid = false;
    }
  }
  return valid ? value : undefined;
};

const readArguments = (
  table: Record<string, unknown>,
  at: readonly string[],
  scope: OverrideScope,
): Record<string, unknown> | undefined => {
  const value = table['arguments'];
  if (value === undefined || isTable(value)) return value;
  scope.problems.push({
    line: scope.line([...at, 'arguments']),
    message: `${tableName(at)} arguments must be a table of argument names to fixed values such as { owner = "acme" }, got ${JSON.stringify(value)}`,
  });
  return undefined;
};

/** One item's override; undefined (with problems) when it is not a table. */
const readOne = (kind: Kind, value: unknown, at: readonly string[], scope: OverrideScope): ToolOverride | PromptOverride | undefined => {
  const known = kind === 'tools' ? TOOL_OVERRIDE_KEYS : PROMPT_OVERRIDE_KEYS;
  if (!isTable(value)) {
    scope.problems.push({ line: scope.line(at), message: `${tableName(at)} must be a table with ${known.join(', ')}` });
    return undefined;
  }
  unknownKeys(value, known, at, scope);
  const fields = {
    name: readName(value, at, scope),
    title: readString(value, 'title', at, scope),
    description: readString(value, 'description', at, scope),
    ...(kind === 'tools' ? { annotations: readAnnotations(value, at, scope), arguments: readArguments(value, at, scope) } : {}),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, item]) => item !== undefined)) as ToolOverride;
};

const readKind = (kind: Kind, table: Record<string, unknown>, scope: OverrideScope): Record<string, ToolOverride> => {
  const value = table[kind];
  if (value === undefined) return {};
  const at = [...scope.path, kind];
  if (!isTable(value)) {
    scope.problems.push({
      line: scope.line(at),
      message: `${tableName(at)} must hold a table for each ${kind === 'tools' ? 'tool' : 'prompt'}, keyed by the server's own name: ${tableName([...at, '<name>'])}`,
    });
    return {};
  }
  const result: Record<string, ToolOverride> = {};
  for (const [name, item] of Object.entries(value)) {
    const override = readOne(kind, item, [...at, name], scope);
    if (override !== undefined) result[name] = override;
  }
  return result;
};

/** An overrides table (`tools` and `prompts`), checked; what is wrong goes to `scope.problems` and is left out. */
export const readOverrides = (value: unknown, scope: OverrideScope): Overrides => {
  if (value === undefined) return noOverrides;
  if (!isTable(value)) {
    scope.problems.push({
      line: scope.line(scope.path),
      message: `${tableName(scope.path)} must be a table of tools and prompts tables: ${tableName([...scope.path, 'tools', '<name>'])}`,
    });
    return noOverrides;
  }
  unknownKeys(value, ['tools', 'prompts'], scope.path, scope);
  return { tools: readKind('tools', value, scope), prompts: readKind('prompts', value, scope) };
};

/** Which table set an item's name, for messages: the profile's when it renames it, else the server's. */
export type SourceOf = (kind: Kind, name: string) => readonly string[];

/**
 * Renames that leave two items with one name: two overrides giving the same final name, or a rename
 * onto the original name of another overridden item. `report` filters which pairs are reported (a
 * profile reports only those its own overrides take part in).
 */
export const checkRenames = (
  overrides: Overrides,
  sourceOf: SourceOf,
  scope: Pick<OverrideScope, 'line' | 'problems'>,
  report: (kind: Kind, names: readonly string[]) => boolean = () => true,
): void => {
  for (const kind of ['tools', 'prompts'] as const) {
    const items: Readonly<Record<string, { readonly name?: string | undefined }>> = overrides[kind];
    const byFinal = new Map<string, string>();
    for (const [original, override] of Object.entries(items)) {
      const final = override.name ?? original;
      const other = byFinal.get(final);
      if (other === undefined) {
        byFinal.set(final, original);
        continue;
      }
      if (!report(kind, [other, original])) continue;
      scope.problems.push({
        line: scope.line([...sourceOf(kind, original), 'name']),
        message: `${tableName(sourceOf(kind, other))} and ${tableName(sourceOf(kind, original))} both give the name ${JSON.stringify(final)}: rename one`,
      });
    }
    for (const [original, override] of Object.entries(items)) {
      const target = override.name;
      if (target === undefined || target === original || items[target] === undefined || (items[target].name ?? target) === target) continue;
      if (!report(kind, [original, target])) continue;
      scope.problems.push({
        line: scope.line([...sourceOf(kind, original), 'name']),
        message: `${tableName(sourceOf(kind, original))} renames to ${JSON.stringify(target)}, the server's own name of the ${kind === 'tools' ? 'tool' : 'prompt'} ${tableName(sourceOf(kind, target))} overrides: a call to ${JSON.stringify(target)} could mean either, so choose another name`,
      });
    }
  }
};
