/**
 * Finding and reading the gateway's config file, with the command line's overrides applied: what
 * every command does first, kept apart from the serving code so that a gateway can read its config
 * (and start its stdio servers) before that code is loaded.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { PromptyardError } from '@promptyard/core';
import type { GatewayOverrides } from '../args.js';
import { loadGatewayConfig } from './gateway-config.js';
import type { GatewayConfig } from './gateway-config.js';

/** The config file: --config, else $PROMPTYARD_GATEWAY_CONFIG, else ./gateway.toml. */
export const locateConfig = (file: string | undefined, cwd: string): string => {
  if (file !== undefined) return resolve(cwd, file);
  const local = resolve(cwd, 'gateway.toml');
  if (existsSync(local)) return local;
  throw new PromptyardError(
    'CONFIG_INVALID',
    'No gateway config: pass --config <file> (a gateway.toml, or a Claude Desktop / Cursor / VS Code JSON config), set PROMPTYARD_GATEWAY_CONFIG, or create ./gateway.toml with a [servers.<id>] table per server.',
  );
};

export const applyOverrides = (config: GatewayConfig, overrides: GatewayOverrides): GatewayConfig => ({
  ...config,
  ...(overrides.lazy === undefined ? {} : { lazy: overrides.lazy }),
  ...(overrides.logLevel === undefined ? {} : { logLevel: overrides.logLevel }),
  ...(overrides.logFormat === undefined ? {} : { logFormat: overrides.logFormat }),
  transport: {
    ...config.transport,
    ...(overrides.transport === undefined ? {} : { type: overrides.transport }),
    ...(overrides.host === undefined ? {} : { host: overrides.host }),
    ...(overrides.port === undefined ? {} : { port: overrides.port }),
  },
});

export const loadConfig = async (file: string, overrides: GatewayOverrides): Promise<GatewayConfig> =>
  applyOverrides(await loadGatewayConfig(file), overrides);
