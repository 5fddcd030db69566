import { silentLogger } from '@promptyard/core';
import { Backend } from './backends/backend.js';
import type { BackendEvents } from './backends/backend.js';
import type { BackendConfig, NameFilter } from './config-backend.js';
import type { RouterConfig } from './router-config.js';
import { noOverrides } from './surface/surface-types.js';

// Configs as the gateway's parser gives them, with its defaults, built without its file format.

const everything: NameFilter = { allow: [], deny: [] };

/** One server entry: stdio with a command, else streamable HTTP; prefixed with its id, enabled, no filters. */
export const backendConfig = (id: string, settings: Partial<BackendConfig> = {}): BackendConfig => ({
  id,
  transport: settings.command === undefined && settings.url !== undefined ? 'streamable-http' : 'stdio',
  args: [],
  env: {},
  inheritEnv: true,
  protocol: 'auto',
  headers: {},
  enabled: true,
  prefix: id,
  tools: everything,
  prompts: everything,
  resources: everything,
  overrides: noOverrides,
  pinning: 'warn',
  ...settings,
});

/** The router's part of a gateway config with nothing but `servers` (and `settings`) set. */
export const routerConfig = (servers: readonly BackendConfig[], settings: Partial<Omit<RouterConfig, 'servers'>> = {}): RouterConfig => ({
  name: 'promptyard-gateway',
  separator: '_',
  lazy: false,
  metaTools: true,
  startupWaitMs: 5000,
  timeouts: { connectMs: 30_000, requestMs: 60_000, toolMs: 300_000 },
  restart: { initialMs: 500, maxMs: 30_000, maxRestarts: 0 },
  limits: { maxMessageBytes: 10_485_760, maxDefinitions: 10_000 },
  servers,
  profiles: [],
  ...settings,
});

/** A backend as the router holds it, never started (so nothing reports events): tests set its state and lists. */
export const unstartedBackend = (config: BackendConfig): Backend =>
  new Backend(
    config,
    {
      connectMs: 1,
      requestMs: 1,
      restartInitialMs: 1,
      restartMaxMs: 1,
      maxRestarts: 0,
      maxMessageBytes: 1024,
      definitionCap: { max: 10_000, setting: '[limits] max_definitions' },
    },
    {} as BackendEvents,
    silentLogger(),
    { name: 'test', version: '0' },
  );
