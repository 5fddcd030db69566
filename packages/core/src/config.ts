import { readFile } from 'node:fs/promises';
import { delimiter } from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import { PromptyardError } from './errors.js';
import { closestNames, formatList } from './suggest.js';

/**
 * Schema-driven configuration: a TOML file, then `PROMPTYARD_<SECTION>_<KEY>` environment variables,
 * then command-line flags (applied by the app). Every mistake names the file, the line and what is
 * allowed, so a user fixes it without reading code.
 */
export type FieldSpec =
  | { readonly type: 'string'; readonly enum?: readonly string[]; readonly default?: string; readonly doc?: string }
  | { readonly type: 'integer'; readonly min?: number; readonly max?: number; readonly default?: number; readonly doc?: string }
  | { readonly type: 'boolean'; readonly default?: boolean; readonly doc?: string }
  | { readonly type: 'string[]'; readonly default?: readonly string[]; readonly separator?: 'comma' | 'path'; readonly doc?: string }
  /** A table of names to strings (`[resources.doc.libraries]`); from the environment as `name=value,…`. */
  | { readonly type: 'record'; readonly default?: Readonly<Record<string, string>>; readonly doc?: string };

export type SectionSpec = Readonly<Record<string, FieldSpec>>;
/** Section names may be dotted (`transport.rate_limit`) for nested tables; `name[]` is an array of tables (`[[name]]`). */
export type ConfigSchema = Readonly<Record<string, SectionSpec>>;

type FieldValue<F extends FieldSpec> = F extends { type: 'string'; enum: readonly (infer E)[] }
  ? E
  : F extends { type: 'string' }
    ? string
    : F extends { type: 'integer' }
      ? number
      : F extends { type: 'boolean' }
        ? boolean
        : F extends { type: 'record' }
          ? Readonly<Record<string, string>>
          : readonly string[];

type WithDefault<F extends FieldSpec> = F extends { default: unknown } ? FieldValue<F> : FieldValue<F> | undefined;

type SectionOf<F extends SectionSpec> = { readonly [Key in keyof F]: WithDefault<F[Key]> };

export type ConfigOf<S extends ConfigSchema> = {
  readonly [Section in keyof S]: Section extends `${string}[]` ? readonly SectionOf<S[Section]>[] : SectionOf<S[Section]>;
};

export interface LoadedConfig<S extends ConfigSchema> {
  readonly values: ConfigOf<S>;
  /** The config file read, if any (relative paths in it resolve against its folder). */
  readonly file?: string;
}

const describeField = (spec: FieldSpec): string => {
  switch (spec.type) {
    case 'string':
      return spec.enum ? `one of ${formatList(spec.enum)}` : 'a string';
    case 'integer':
      return spec.min !== undefined && spec.max !== undefined
        ? `an integer from ${spec.min} to ${spec.max}`
        : spec.min !== undefined
          ? `an integer of at least ${spec.min}`
          : 'an integer';
    case 'boolean':
      return 'true or false';
    case 'string[]':
      return 'a list of strings';
    case 'record':
      return 'a table of names to strings';
  }
};

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

const isTable = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

interface Problem {
  readonly where: string;
  readonly message: string;
}

const coerce = (spec: FieldSpec, value: unknown): { ok: true; value: unknown } | { ok: false } => {
  switch (spec.type) {
    case 'string':
      if (typeof value !== 'string') return { ok: false };
      if (spec.enum && !spec.enum.includes(value)) return { ok: false };
      return { ok: true, value };
    case 'integer': {
      const number = typeof value === 'bigint' ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isInteger(number)) return { ok: false };
      if ((spec.min !== undefined && number < spec.min) || (spec.max !== undefined && number > spec.max)) return { ok: false };
      return { ok: true, value: number };
    }
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : { ok: false };
    case 'string[]':
      return Array.isArray(value) && value.every((item) => typeof item === 'string') ? { ok: true, value } : { ok: false };
    case 'record':
      return isTable(value) && Object.values(value).every((item) => typeof item === 'string')
        ? { ok: true, value: { ...value } }
        : { ok: false };
  }
};

const fromEnvString = (spec: FieldSpec, raw: string): unknown => {
  switch (spec.type) {
    case 'string':
      return raw;
    case 'integer':
      return /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
    case 'boolean': {
      const lowered = raw.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(lowered)) return true;
      if (['0', 'false', 'no', 'off'].includes(lowered)) return false;
      return raw;
    }
    case 'string[]':
      return raw
        .split(spec.separator === 'path' ? delimiter : ',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
    case 'record': {
      const entries = raw.split(',').map((item) => item.split('=').map((part) => part.trim()));
      return entries.every((pair) => pair.length === 2 && pair[0] !== '') ? Object.fromEntries(entries) : raw;
    }
  }
};

/** `transport.rate_limit` + `burst` → `PROMPTYARD_TRANSPORT_RATE_LIMIT_BURST`. */
export const envName = (section: string, key: string, prefix = 'PROMPTYARD'): string =>
  `${prefix}_${section}_${key}`.replace(/[.-]/g, '_').toUpperCase();

const throwProblems = (problems: readonly Problem[]): never => {
  const lines = problems.map((problem) => `${problem.where}: ${problem.message}`);
  throw new PromptyardError('CONFIG_INVALID', `Invalid configuration:\n  ${lines.join('\n  ')}`);
};

export interface LoadConfigOptions {
  /** Path of the TOML file; when absent only defaults and the environment apply. */
  readonly file?: string | undefined;
  /** TOML text, instead of reading `file` (for tests). */
  readonly source?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly envPrefix?: string;
}

/** Validates a parsed TOML document against `schema` and applies defaults and the environment. */
export const resolveConfig = <S extends ConfigSchema>(
  schema: S,
  document: Record<string, unknown>,
  options: LoadConfigOptions & { source?: string },
): ConfigOf<S> => {
  const fileName = options.file ?? 'config';
  const source = options.source ?? '';
  const problems: Problem[] = [];
  const sections = Object.keys(schema);
  const result: Record<string, Record<string, unknown>> = {};

  const at = (section: string, key?: string): string => {
    const line = locateKey(source, section, key);
    return line > 0 ? `${fileName}:${line}` : fileName;
  };

  // Unknown tables and keys: walk the document, allowing nested tables that are sections themselves.
  const walk = (table: Record<string, unknown>, path: string): void => {
    for (const [key, value] of Object.entries(table)) {
      const full = path === '' ? key : `${path}.${key}`;
      if (Array.isArray(value) && schema[`${full}[]`] !== undefined) continue; // checked with its section below
      if (isTable(value) && (sections.includes(full) || sections.some((section) => section.startsWith(`${full}.`)))) {
        walk(value, full);
        continue;
      }
      const spec = schema[path];
      if (path === '' || spec === undefined) {
        const hints = closestNames(full, sections);
        problems.push({
          where: at(full),
          message: `unknown section [${full}]${hints.length > 0 ? ` (did you mean [${hints[0] as string}]?)` : ''}; allowed sections: ${sections.map((section) => `[${section}]`).join(', ')}`,
        });
        continue;
      }
      if (!(key in spec)) {
        const hints = closestNames(key, Object.keys(spec));
        problems.push({
          where: at(path, key),
          message: `unknown key "${key}" in [${path}]${hints.length > 0 ? ` (did you mean "${hints[0] as string}"?)` : ''}; allowed keys: ${Object.keys(spec).join(', ')}`,
        });
      }
    }
  };
  walk(document, '');

  const lookup = (section: string): Record<string, unknown> => {
    let table: unknown = document;
    for (const part of section.split('.')) table = isTable(table) ? table[part] : undefined;
    return isTable(table) ? table : {};
  };

  const env = options.env ?? {};
  const readTable = (section: string, table: Record<string, unknown>, fields: SectionSpec, where: string): Record<string, unknown> => {
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
    }
    return values;
  };
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
      return [readTable(name, item, fields, where)];
    });
  }
  for (const [section, fields] of Object.entries(schema)) {
    if (section.endsWith('[]')) continue;
    const table = lookup(section);
    const values: Record<string, unknown> = {};
    for (const [key, spec] of Object.entries(fields)) {
      const variable = envName(section, key, options.envPrefix);
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
  if (problems.length > 0) throwProblems(problems);
  return { ...result, ...arrays } as ConfigOf<S>;
};

/** Reads, parses and validates a TOML config file (or only defaults and the environment without one). */
export const loadConfig = async <S extends ConfigSchema>(schema: S, options: LoadConfigOptions = {}): Promise<LoadedConfig<S>> => {
  let source = options.source;
  if (source === undefined && options.file !== undefined) {
    try {
      source = await readFile(options.file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new PromptyardError(
        'CONFIG_INVALID',
        code === 'ENOENT'
          ? `Config file ${options.file} does not exist: create it, or drop --config to use the defaults.`
          : `Cannot read config file ${options.file}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  let document: Record<string, unknown> = {};
  if (source !== undefined) {
    try {
      document = parseToml(source) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof TomlError) {
        const reason = error.message.split('\n')[0] ?? error.message;
        throw new PromptyardError(
          'CONFIG_INVALID',
          `Invalid configuration:\n  ${options.file ?? 'config'}:${error.line}:${error.column}: ${reason}`,
          { cause: error },
        );
      }
      throw error;
    }
  }
  const values = resolveConfig(schema, document, { ...options, source: source ?? '' });
  return options.file === undefined ? { values } : { values, file: options.file };
};
