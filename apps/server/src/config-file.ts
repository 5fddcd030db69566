/**
 * Which config file the server reads and what its environment holds that nothing reads: the file is
 * `--config`, else `$PROMPTYARD_CONFIG` (both given by args.ts), else `./promptyard.toml` when the working
 * folder has one, else none (defaults and the environment); a `PROMPTYARD_*` variable no setting
 * reads is warned about with the closest names, since a typo would otherwise change nothing silently.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { findUnknownEnv, schemaEnvNames } from '@promptyard/core';
import type { ConfigSchema, Logger } from '@promptyard/core';

/** The file read from the working folder when neither `--config` nor `$PROMPTYARD_CONFIG` names one. */
const LOCAL_CONFIG_FILE = 'promptyard.toml';

/** Short environment names, for the settings people change most. */
export const envAliases: Readonly<Record<string, string>> = {
  PROMPTYARD_TRANSPORT: 'PROMPTYARD_TRANSPORT_TYPE',
  PROMPTYARD_HOST: 'PROMPTYARD_TRANSPORT_HOST',
  PROMPTYARD_PORT: 'PROMPTYARD_TRANSPORT_PORT',
  PROMPTYARD_AUTH_TOKEN: 'PROMPTYARD_TRANSPORT_AUTH_TOKEN',
  PROMPTYARD_PROMPTS: 'PROMPTYARD_PROMPTS_FOLDERS',
  PROMPTYARD_LOG_LEVEL: 'PROMPTYARD_SERVER_LOG_LEVEL',
  PROMPTYARD_LOG_FORMAT: 'PROMPTYARD_SERVER_LOG_FORMAT',
  PROMPTYARD_HOME: 'PROMPTYARD_DISCOVERY_HOME_DIR',
  PROMPTYARD_URL_MODE: 'PROMPTYARD_RESOURCES_URL_MODE',
  PROMPTYARD_URL_ALLOW: 'PROMPTYARD_RESOURCES_URL_ALLOW',
};

/** Variables the server reads besides its settings: the config file's path. */
const otherVariables = ['PROMPTYARD_CONFIG'];

/** The config file to read, absolute: the one named, else `./promptyard.toml` if it exists, else none. */
export const locateServerConfig = (named: string | undefined, cwd: string): string | undefined => {
  if (named !== undefined) return isAbsolute(named) ? named : resolve(cwd, named);
  const local = join(cwd, LOCAL_CONFIG_FILE);
  return existsSync(local) ? local : undefined;
};

/**
 * Warnings for `PROMPTYARD_*` variables the server does not read. `secretVariable` is the one
 * `[git] webhook_secret_env` names; `PROMPTYARD_GATEWAY_*` belong to promptyard-gateway (a shell may
 * set them for both).
 */
export const serverEnvWarnings = (
  env: Readonly<Record<string, string | undefined>>,
  schema: ConfigSchema,
  secretVariable: string,
): string[] =>
  findUnknownEnv(env, [...schemaEnvNames(schema), ...Object.keys(envAliases), ...otherVariables, secretVariable], {
    belongsElsewhere: (name) => name.startsWith('PROMPTYARD_GATEWAY_'),
  });

/** Says which config file was read, or where none was found (at info), and warns about the environment's unread variables. */
export const reportConfig = (
  resolved: { readonly file?: string; readonly cwd: string; readonly warnings: readonly string[] },
  logger: Logger,
): void => {
  if (resolved.file === undefined)
    logger.info('no config file: defaults and the environment apply', { looked: join(resolved.cwd, LOCAL_CONFIG_FILE) });
  else logger.info('config file read', { file: resolved.file });
  for (const warning of resolved.warnings) logger.warn(warning);
};
