/**
 * Schema-driven configuration: a TOML file, then `PROMPTYARD_<SECTION>_<KEY>` environment variables,
 * then command-line flags (applied by the app). Every mistake names the file, the line and what is
 * allowed, so a user fixes it without reading code. This folder holds the schema and field rules
 * (`config-fields.ts`), the section-by-section reading (`config-sections.ts`) and, here, loading.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseToml, TomlError } from 'smol-toml';
import { PromptyardError } from '../errors/errors.js';
import type { ConfigOf, ConfigSchema } from './config-fields.js';
import { findUnknownKeys, locateKey, readArraySections, readSections } from './config-sections.js';
import type { Problem } from './config-sections.js';
import { describeTomlError } from './toml-errors.js';

export interface LoadedConfig<S extends ConfigSchema> {
  readonly values: ConfigOf<S>;
  /** The config file read, if any (relative paths in it resolve against its folder). */
  readonly file?: string;
}

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
  const at = (section: string, key?: string): string => {
    const line = locateKey(source, section, key);
    return line > 0 ? `${fileName}:${line}` : fileName;
  };
  findUnknownKeys(schema, document, '', at, problems);
  const arrays = readArraySections(schema, document, at, problems);
  const result = readSections(schema, document, options.env ?? {}, options.envPrefix, at, problems);
  if (problems.length > 0) throwProblems(problems);
  return { ...result, ...arrays } as ConfigOf<S>;
};

const readSource = async (file: string): Promise<string> => {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PromptyardError(
      'CONFIG_INVALID',
      code === 'ENOENT'
        ? `Config file ${file} does not exist: create it, or drop --config to use the defaults.`
        : `Cannot read config file ${file}: ${(error as Error).message}`,
      { cause: error },
    );
  }
};

const parseSource = (source: string, file: string | undefined): Record<string, unknown> => {
  try {
    return parseToml(source) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError)
      throw new PromptyardError('CONFIG_INVALID', `Invalid configuration:\n  ${describeTomlError(error, file ?? 'config')}`, {
        cause: error,
      });
    throw error;
  }
};

/** Reads, parses and validates a TOML config file (or only defaults and the environment without one). */
export const loadConfig = async <S extends ConfigSchema>(schema: S, options: LoadConfigOptions = {}): Promise<LoadedConfig<S>> => {
  let source = options.source;
  if (source === undefined && options.file !== undefined) source = await readSource(options.file);
  const document = source === undefined ? {} : parseSource(source, options.file);
  const values = resolveConfig(schema, document, { ...options, source: source ?? '' });
  return options.file === undefined ? { values } : { values, file: options.file };
};
