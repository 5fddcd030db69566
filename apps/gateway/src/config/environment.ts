/**
 * The gateway's environment: the short names of its most changed settings, and warnings for
 * `PROMPTYARD_*` variables nothing reads — neither a setting (`PROMPTYARD_<SECTION>_<KEY>`), nor the
 * config file's path, nor a variable the config file itself refers to (`${PROMPTYARD_TOKEN}`).
 */
import { findUnknownEnv, schemaEnvNames } from '@promptyard/core';
import { STARTUP_MARKS_VARIABLE } from '@promptyard/host';
import { GATEWAY_CHAIN_VARIABLE } from '@promptyard/router';
import { sectionsSchema } from './schema.js';
import { referencedVariables } from './substitute.js';

/** Short environment names, as promptyard-server has them. */
export const envAliases: Readonly<Record<string, string>> = {
  PROMPTYARD_TRANSPORT: 'PROMPTYARD_TRANSPORT_TYPE',
  PROMPTYARD_HOST: 'PROMPTYARD_TRANSPORT_HOST',
  PROMPTYARD_PORT: 'PROMPTYARD_TRANSPORT_PORT',
  PROMPTYARD_AUTH_TOKEN: 'PROMPTYARD_TRANSPORT_AUTH_TOKEN',
  PROMPTYARD_LOG_LEVEL: 'PROMPTYARD_GATEWAY_LOG_LEVEL',
  PROMPTYARD_LOG_FORMAT: 'PROMPTYARD_GATEWAY_LOG_FORMAT',
};

/** Read besides the settings: the config file's path, the chain of gateways a backend inherits, start-up marks. */
const otherVariables = ['PROMPTYARD_GATEWAY_CONFIG', GATEWAY_CHAIN_VARIABLE, STARTUP_MARKS_VARIABLE];

/** One warning per `PROMPTYARD_*` variable in `env` the gateway does not read, given the config file's `text`. */
export const gatewayEnvWarnings = (env: Readonly<Record<string, string | undefined>>, text: string): string[] =>
  findUnknownEnv(env, [...schemaEnvNames(sectionsSchema), ...Object.keys(envAliases), ...otherVariables, ...referencedVariables(text)]);
