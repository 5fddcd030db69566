/**
 * `PROMPTYARD_*` environment variables nothing reads: a misspelt one (`PROMPTYARD_LIMITS_MAX_FILE_BYTS`)
 * would otherwise be ignored without a word. The known names are derived from the same schema that
 * maps `PROMPTYARD_<SECTION>_<KEY>` onto config keys, plus the names a program reads besides.
 */
import { didYouMean, namesWithinEdits } from '../text/suggest.js';
import type { ConfigSchema } from './config-fields.js';
import { envName } from './config-fields.js';

/** Every `PROMPTYARD_<SECTION>_<KEY>` a schema reads (arrays of tables, `[[name]]`, are not read from the environment). */
export const schemaEnvNames = (schema: ConfigSchema, prefix = 'PROMPTYARD'): string[] =>
  Object.entries(schema).flatMap(([section, fields]) =>
    section.endsWith('[]') ? [] : Object.keys(fields).map((key) => envName(section, key, prefix)),
  );

export interface UnknownEnvOptions {
  /** Default `PROMPTYARD`. */
  readonly prefix?: string;
  /** Names another program reads (`PROMPTYARD_GATEWAY_*` for the server): not reported. */
  readonly belongsElsewhere?: (name: string) => boolean;
}

/**
 * One warning per `<prefix>_*` variable set in `env` that is not in `known`, with the closest known
 * names; sorted by name. Variables set to the empty string count as set: they are as ignored.
 */
export const findUnknownEnv = (
  env: Readonly<Record<string, string | undefined>>,
  known: Iterable<string>,
  options: UnknownEnvOptions = {},
): string[] => {
  const lead = `${options.prefix ?? 'PROMPTYARD'}_`;
  const names = new Set(known);
  // Compared without the prefix every name shares, so the distance is the typo's.
  const bare = [...names].filter((name) => name.startsWith(lead)).map((name) => name.slice(lead.length));
  return Object.keys(env)
    .filter((name) => name.startsWith(lead) && env[name] !== undefined && !names.has(name) && options.belongsElsewhere?.(name) !== true)
    .sort()
    .map((name) => {
      const typed = name.slice(lead.length);
      // Typos only: one edit per six characters, from one to three.
      const edits = Math.min(3, Math.max(1, Math.floor(typed.length / 6)));
      const close = namesWithinEdits(typed, bare, edits)
        .slice(0, 2)
        .map((suggestion) => `${lead}${suggestion}`);
      return `environment variable ${name} is not a setting and is ignored.${didYouMean(close)}`;
    });
};
