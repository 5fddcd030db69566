/**
 * Which of a server's items a surface serves and how it changes them: the server's own filters and
 * overrides for the default surface (everything), narrowed by a profile's globs and with its
 * overrides laid over them for a profile.
 */
import type { Backend } from '../backends/backend.js';
import { compileNameFilter } from '../config-backend.js';
import type { BackendConfig } from '../config-backend.js';
import { compileGlobList } from './globs.js';
import { layerOverrides } from './overrides.js';
import type { Overrides, ProfileConfig, ProfileServer } from './surface-types.js';

export interface ServerSelection {
  readonly tools: (name: string) => boolean;
  readonly prompts: (name: string) => boolean;
  readonly resources: (name: string) => boolean;
  readonly overrides: Overrides;
}

const both =
  (first: (name: string) => boolean, second: (name: string) => boolean) =>
  (name: string): boolean =>
    first(name) && second(name);

/** The server's own filters and overrides: what the default surface serves of it. */
const serverSelection = (config: BackendConfig): ServerSelection => ({
  tools: compileNameFilter(config.tools),
  prompts: compileNameFilter(config.prompts),
  resources: compileNameFilter(config.resources),
  overrides: config.overrides,
});

const profileSelection = (config: BackendConfig, entry: ProfileServer): ServerSelection => {
  const own = serverSelection(config);
  return {
    tools: both(own.tools, compileGlobList(entry.tools)),
    prompts: both(own.prompts, compileGlobList(entry.prompts)),
    resources: both(own.resources, compileGlobList(entry.resources)),
    overrides: layerOverrides(config.overrides, entry.overrides),
  };
};

/** Selections are compiled once per server config and profile (a reload makes new config objects). */
const compiled = new WeakMap<BackendConfig, WeakMap<object, ServerSelection>>();
const everything = {};

/**
 * The selection of `backend` in `profile` (undefined: the default surface), or `undefined` when the
 * profile does not name the server.
 */
export const selectionOf = (backend: Backend, profile: ProfileConfig | undefined): ServerSelection | undefined => {
  const entry = profile === undefined ? undefined : profile.servers.find((server) => server.server === backend.id);
  if (profile !== undefined && entry === undefined) return undefined;
  const key = entry ?? everything;
  let byProfile = compiled.get(backend.config);
  if (byProfile === undefined) {
    byProfile = new WeakMap();
    compiled.set(backend.config, byProfile);
  }
  let selection = byProfile.get(key);
  if (selection === undefined) {
    selection = entry === undefined ? serverSelection(backend.config) : profileSelection(backend.config, entry);
    byProfile.set(key, selection);
  }
  return selection;
};

/** The override of an item by its own name (never one inherited from Object.prototype). */
export const ownOverride = <T>(overrides: Readonly<Record<string, T>>, name: string): T | undefined =>
  Object.hasOwn(overrides, name) ? overrides[name] : undefined;
