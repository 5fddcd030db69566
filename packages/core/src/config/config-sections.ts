import { closestNames, didYouMean } from '../text/suggest.js';
import { coerce, describeField, envName, fromEnvString, isTable } from './config-fields.js';
import type { ConfigSchema, SectionSpec } from './config-fields.js';

/** Reading a parsed TOML document section by section: unknown tables and keys, arrays of tables, environment overrides. */

export interface Problem {
  readonly where: string;
  readonly message: string;
}

/** Where a section or key is in the file, for messages: `promptyard.toml:12`, or the file name alone. */
export type Locate = (section: string, key?: string) => string;

/** Finds the line of `key` inside `[section]` in TOML source; 0 when not found. */
export const locateKey = (source: string, section: string, key?: string): number => {
  const lines = source.split(/\r?\n/);
  let current = '';
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).trim();
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?/.exec(line);
    if (header) {
      current = (header[1] as string).replace(/\s*\.\s*/g, '.').replace(/"/g, '');
      if (key === undefined && current === section) return index + 1;
      continue;
    }
    if (key === undefined) continue;
    const match = /^"?([A-Za-z0-9_.-]+)"?\s*=/.exec(line);
    if (!match) continue;
    const full = current === '' ? (match[1] as string) : `${current}.${match[1] as string}`;
    if (full === `${section}.${key}` || (current === section && match[1] === key)) return index + 1;
  }
  return 0;
};

/** `[name]`, the way messages show a section. */
const asSection = (names: readonly string[]): string => `[${names[0] as string}]`;
/** `"name"`: only the closest name is shown. */
const firstName = (names: readonly string[]): string => `"${names[0] as string}"`;

/** Unknown tables and keys: walks the document, allowing nested tables that are sections themselves. */
export const findUnknownKeys = (
  schema: ConfigSchema,
  table: Record<string, unknown>,
  path: string,
  at: Locate,
  problems: Problem[],
): void => {
  const sections = Object.keys(schema);
  for (const [key, value] of Object.entries(table)) {
    const full = path === '' ? key : `${path}.${key}`;
    if (Array.isArray(value) && schema[`${full}[]`] !== undefined) continue; // checked with its section
    if (isTable(value) && (sections.includes(full) || sections.some((section) => section.startsWith(`${full}.`)))) {
      findUnknownKeys(schema, value, full, at, problems);
      continue;
    }
    const spec = schema[path];
    if (path === '' || spec === undefined) {
      const hint = didYouMean(closestNames(full, sections), 'aside', asSection);
      problems.push({
        where: at(full),
        message: `unknown section [${full}]${hint}; allowed sections: ${sections.map((section) => `[${section}]`).join(', ')}`,
      });
      continue;
    }
    if (!(key in spec)) {
      const hint = didYouMean(closestNames(key, Object.keys(spec)), 'aside', firstName);
      problems.push({
        where: at(path, key),
        message: `unknown key "${key}" in [${path}]${hint}; allowed keys: ${Object.keys(spec).join(', ')}`,
      });
    }
  }
};

/** One `[[section]]` entry: its known keys checked, defaults filled in. */
const readTable = (
  section: string,
  table: Record<string, unknown>,
  fields: SectionSpec,
  where: string,
  problems: Problem[],
): Record<string, unknown> => {
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(table)) {
    if (!(key in fields))
      problems.push({ where, message: `unknown key "${key}" in [[${section}]]; allowed keys: ${Object.keys(fields).join(', ')}` });
  }
  for (const [key, spec] of Object.entries(fields)) {
    if (key in table) {
      const coerced = coerce(spec, table[key]);
      if (coerced.ok) values[key] = coerced.value;
      else problems.push({ where, message: `[[${section}]] ${key} must be ${describeField(spec)}, got ${JSON.stringify(table[key])}` });
    } else if (spec.default !== undefined) values[key] = spec.default;
    else if (spec.type === 'string' && spec.required === true) problems.push({ where, message: `[[${section}]] needs ${key}` });
  }
  return values;
};

/** The arrays of tables (`name[]` sections, `[[name]]` in TOML). */
export const readArraySections = (
  schema: ConfigSchema,
  document: Record<string, unknown>,
  at: Locate,
  problems: Problem[],
): Record<string, unknown> => {
  const arrays: Record<string, unknown> = {};
  for (const [section, fields] of Object.entries(schema)) {
    if (!section.endsWith('[]')) continue;
    const name = section.slice(0, -2);
    let items: unknown = document;
    for (const part of name.split('.')) items = isTable(items) ? items[part] : undefined;
    const list = Array.isArray(items) ? items : [];
    arrays[section] = list.flatMap((item, index) => {
      const where = `${at(name)} ([[${name}]] #${index + 1})`;
      if (!isTable(item)) {
        problems.push({ where, message: `[[${name}]] entries must be tables` });
        return [];
      }
      return [readTable(name, item, fields, where, problems)];
    });
  }
  return arrays;
};

const lookup = (document: Record<string, unknown>, section: string): Record<string, unknown> => {
  let table: unknown = document;
  for (const part of section.split('.')) table = isTable(table) ? table[part] : undefined;
  return isTable(table) ? table : {};
};

/** The plain sections: each key from the environment, else from the file, else its default. */
export const readSections = (
  schema: ConfigSchema,
  document: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
  envPrefix: string | undefined,
  at: Locate,
  problems: Problem[],
): Record<string, Record<string, unknown>> => {
  const result: Record<string, Record<string, unknown>> = {};
  for (const [section, fields] of Object.entries(schema)) {
    if (section.endsWith('[]')) continue;
    const table = lookup(document, section);
    const values: Record<string, unknown> = {};
    for (const [key, spec] of Object.entries(fields)) {
      const variable = envName(section, key, envPrefix);
      const raw = env[variable];
      if (raw !== undefined && raw !== '') {
        const coerced = coerce(spec, fromEnvString(spec, raw));
        if (coerced.ok) values[key] = coerced.value;
        else
          problems.push({
            where: `environment variable ${variable}`,
            message: `must be ${describeField(spec)}, got ${JSON.stringify(raw)}`,
          });
        continue;
      }
      if (key in table) {
        const coerced = coerce(spec, table[key]);
        if (coerced.ok) values[key] = coerced.value;
        else
          problems.push({
            where: at(section, key),
            message: `[${section}] ${key} must be ${describeField(spec)}, got ${JSON.stringify(table[key])}`,
          });
        continue;
      }
      if (spec.default !== undefined) values[key] = spec.default;
    }
    result[section] = values;
  }
  return result;
};
