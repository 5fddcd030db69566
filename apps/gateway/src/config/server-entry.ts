import { closestNames, didYouMean } from '@promptyard/core';
import { globProblem } from '@promptyard/router';
import type { NameFilter } from '@promptyard/router';
import { substituteVariables } from './substitute.js';
import type { SubstitutionContext } from './substitute.js';
import type { FILTER_KINDS } from './values.js';
import { isTable } from '@promptyard/core';
import { MAX_DEFINITIONS, MAX_TIMEOUT_MS } from './values.js';

// One server entry from any format, and its fields read with their types checked and ${VAR}s substituted.

export interface Problem {
  readonly line: number;
  readonly message: string;
}

/** One server entry as read from any format, with keys named as in gateway.toml. */
export interface RawServer {
  readonly key: string;
  readonly fields: Readonly<Record<string, unknown>>;
  /** How a gateway.toml key is written in the source (`transport` is `type` in JSON). */
  readonly label: (key: string) => string;
  /** The line of a key path inside the entry (`["env", "TOKEN"]`), else of the entry; 0 if unknown. */
  readonly line: (path?: readonly string[]) => number;
  /** The entry is not a table / object at all. */
  readonly malformed?: boolean;
}

export interface BuildContext {
  readonly format: 'toml' | 'claude' | 'vscode';
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly base: string;
  readonly builtins?: Readonly<Record<string, string>>;
  readonly problems: Problem[];
}

/** An entry being checked: its fields, where its problems go and how its strings are substituted. */
export interface ServerEntry {
  readonly raw: RawServer;
  readonly id: string;
  readonly context: BuildContext;
  /** `enabled` (true when absent); a disabled entry's unset variables stay as written. */
  readonly enabled: boolean;
  readonly problem: (path: readonly string[], message: string) => void;
  /** `${VAR}` substitution of a string value at `path`. */
  readonly substitute: (path: readonly string[], value: string) => string;
}

export const openEntry = (raw: RawServer, context: BuildContext, id: string): ServerEntry => {
  const { fields, label } = raw;
  const problem = (path: readonly string[], message: string): void => {
    context.problems.push({ line: raw.line(path), message: `server "${raw.key}": ${message}` });
  };
  const enabledValue = fields['enabled'];
  if (enabledValue !== undefined && typeof enabledValue !== 'boolean') problem(['enabled'], `${label('enabled')} must be true or false`);
  const enabled = typeof enabledValue === 'boolean' ? enabledValue : true;
  const substitution: SubstitutionContext = {
    env: context.env,
    lenient: !enabled,
    ...(context.builtins ? { builtins: context.builtins } : {}),
  };
  const substitute = (path: readonly string[], value: string): string => {
    const result = substituteVariables(value, substitution);
    const [key = '', index] = path;
    const where = index === undefined ? label(key) : key === 'args' ? `${label(key)}[${index}]` : `${label(key)}.${index}`;
    for (const message of result.problems) problem(path, `${where} ${message}`);
    return result.value;
  };
  return { raw, id, context, enabled, problem, substitute };
};

export const readText = ({ raw, problem, substitute }: ServerEntry, key: string): string | undefined => {
  const value = raw.fields[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    problem([key], `${raw.label(key)} must be a string, got ${JSON.stringify(value)}`);
    return undefined;
  }
  return substitute([key], value);
};

export const readStrings = ({ raw, problem, substitute }: ServerEntry, key: string): string[] => {
  const value = raw.fields[key];
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    problem([key], `${raw.label(key)} must be a list of strings (quote numbers), got ${JSON.stringify(value)}`);
    return [];
  }
  return value.map((item: string, index) => substitute([key, String(index)], item));
};

export const readRecord = ({ raw, problem, substitute }: ServerEntry, key: string): Record<string, string> => {
  const value = raw.fields[key];
  if (value === undefined) return {};
  if (!isTable(value)) {
    problem([key], `${raw.label(key)} must be a table of names to strings, got ${JSON.stringify(value)}`);
    return {};
  }
  const result: Record<string, string> = {};
  for (const [name, item] of Object.entries(value)) {
    if (typeof item !== 'string')
      problem([key, name], `${raw.label(key)}.${name} must be a string (quote it), got ${JSON.stringify(item)}`);
    else result[name] = substitute([key, name], item);
  }
  return result;
};

export const readMilliseconds = ({ raw, problem }: ServerEntry, key: string): number | undefined => {
  const value = typeof raw.fields[key] === 'bigint' ? Number(raw.fields[key]) : raw.fields[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) {
    problem([key], `${raw.label(key)} must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${JSON.stringify(value)}`);
    return undefined;
  }
  return value;
};

/** `max_definitions`: a whole number from 1 to `MAX_DEFINITIONS`. */
export const readDefinitionCap = ({ raw, problem }: ServerEntry): number | undefined => {
  const key = 'max_definitions';
  const value = typeof raw.fields[key] === 'bigint' ? Number(raw.fields[key]) : raw.fields[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_DEFINITIONS) {
    problem(
      [key],
      `${raw.label(key)} must be a whole number of definitions per list from 1 to ${MAX_DEFINITIONS}, got ${JSON.stringify(value)}`,
    );
    return undefined;
  }
  return value;
};

type FilterKind = (typeof FILTER_KINDS)[number];

const readGlobs = ({ problem }: ServerEntry, kind: FilterKind, table: Record<string, unknown>, key: 'allow' | 'deny'): string[] => {
  const list = table[key];
  if (list === undefined) return [];
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string' && item !== '')) {
    problem(
      [kind, key],
      `${kind}.${key} must be a list of non-empty name globs such as ["create_*", "list_?"], got ${JSON.stringify(list)}`,
    );
    return [];
  }
  // Resources are matched by URI and by name: only what no URI could match is refused.
  const problems = (list as string[]).flatMap((glob) => globProblem(glob, kind === 'resources' ? 'uri' : 'name') ?? []);
  for (const message of problems) problem([kind, key], `${kind}.${key}: ${message}`);
  return problems.length === 0 ? (list as string[]) : [];
};

/** `[servers.<id>.tools]` and the like: allow and deny globs. */
export const readFilter = (entry: ServerEntry, kind: FilterKind): NameFilter => {
  const value = entry.raw.fields[kind];
  if (value === undefined) return { allow: [], deny: [] };
  if (!isTable(value)) {
    entry.problem([kind], `${kind} must be a table with allow and deny lists ([servers.${entry.id}.${kind}])`);
    return { allow: [], deny: [] };
  }
  for (const key of Object.keys(value)) {
    if (key !== 'allow' && key !== 'deny') {
      const hint = didYouMean(closestNames(key, ['allow', 'deny'], 1), 'aside');
      entry.problem([kind, key], `unknown key "${key}" in ${kind}${hint}; allowed keys: allow, deny`);
    }
  }
  return { allow: readGlobs(entry, kind, value, 'allow'), deny: readGlobs(entry, kind, value, 'deny') };
};
