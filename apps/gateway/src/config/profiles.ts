import { PromptyardError, closestNames, didYouMean, formatList, isTable } from '@promptyard/core';
import { DEFAULT_PROFILE, globProblem, layerOverrides, noOverrides } from '@promptyard/router';
import type { BackendConfig, Overrides, ProfileConfig, ProfileServer } from '@promptyard/router';
import { checkRenames, readOverrides, tableName, unknownKeys } from './overrides.js';
import type { OverrideScope } from './overrides.js';
import { PROFILE_KEYS, PROFILE_SERVER_KEYS } from './schema.js';
import type { Problem } from './server-entry.js';
import { PROFILE_NAME } from './values.js';

// `[profiles.<name>]`: curated surfaces of some servers, with globs and overrides of their own,
// checked against the servers the file declares; and `--profile <name>` resolved to one of them.

export interface ProfileContext {
  /** Every server the file declares, by id (servers with problems of their own included, so they are not reported twice). */
  readonly serverIds: readonly string[];
  /** The servers that were built, for their overrides. */
  readonly servers: readonly BackendConfig[];
  readonly line: (path: readonly string[]) => number;
  readonly problems: Problem[];
}

/** A list of globs; `["*"]` when absent. */
const readGlobList = (
  table: Record<string, unknown>,
  key: 'tools' | 'prompts' | 'resources',
  at: readonly string[],
  context: ProfileContext,
): string[] => {
  const value = table[key];
  if (value === undefined) return ['*'];
  const where = [...at, key];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    context.problems.push({
      line: context.line(where),
      message: `${tableName(at)} ${key} must be a list of globs such as ["get_*", "!get_secret*"] ([] for none), got ${JSON.stringify(value)}`,
    });
    return [];
  }
  const problems = (value as string[]).flatMap((glob) => globProblem(glob, key === 'resources' ? 'uri' : 'name') ?? []);
  for (const message of problems) context.problems.push({ line: context.line(where), message: `${tableName(at)} ${key}: ${message}` });
  return value as string[];
};

/** A profile's overrides, and renames that collide once applied over the server's (only pairs the profile takes part in). */
const readProfileOverrides = (
  value: unknown,
  at: readonly string[],
  server: BackendConfig | undefined,
  context: ProfileContext,
): Overrides => {
  const scope: OverrideScope = { path: [...at, 'overrides'], line: context.line, problems: context.problems };
  const own = readOverrides(value, scope);
  if (own === noOverrides) return own;
  const serverPath = ['servers', server?.sourceId ?? server?.id ?? '', 'overrides'];
  const mine = (kind: 'tools' | 'prompts', name: string): boolean => own[kind][name] !== undefined;
  checkRenames(
    layerOverrides(server?.overrides ?? noOverrides, own),
    (kind, name) => [...(mine(kind, name) ? scope.path : serverPath), kind, name],
    scope,
    (kind, names) => names.some((name) => mine(kind, name)),
  );
  return own;
};

const readProfileServer = (id: string, value: unknown, at: readonly string[], context: ProfileContext): ProfileServer | undefined => {
  if (!context.serverIds.includes(id)) {
    const hint = didYouMean(closestNames(id, context.serverIds, 1), 'aside');
    context.problems.push({
      line: context.line(at),
      message: `${tableName(at)} names the unknown server "${id}"${hint}; servers: ${context.serverIds.join(', ') || 'none'}`,
    });
    return undefined;
  }
  if (!isTable(value)) {
    context.problems.push({ line: context.line(at), message: `${tableName(at)} must be a table with ${PROFILE_SERVER_KEYS.join(', ')}` });
    return undefined;
  }
  unknownKeys(value, PROFILE_SERVER_KEYS, at, context);
  const server = context.servers.find((item) => item.id === id);
  return {
    server: id,
    tools: readGlobList(value, 'tools', at, context),
    prompts: readGlobList(value, 'prompts', at, context),
    resources: readGlobList(value, 'resources', at, context),
    overrides: readProfileOverrides(value['overrides'], at, server, context),
  };
};

const readProfile = (name: string, value: unknown, context: ProfileContext): ProfileConfig | undefined => {
  const at = ['profiles', name];
  const start = context.problems.length;
  if (name === DEFAULT_PROFILE) {
    context.problems.push({
      line: context.line(at),
      message: `[profiles.${DEFAULT_PROFILE}]: "${DEFAULT_PROFILE}" is the whole gateway (the plain endpoint, and stdio without --profile) and cannot be configured: choose another name`,
    });
  } else if (!PROFILE_NAME.test(name)) {
    context.problems.push({
      line: context.line(at),
      message: `profile name ${JSON.stringify(name)} must be lower-case letters, digits, "_" and "-", starting with a letter or digit (it is served at /mcp/<name>)`,
    });
  }
  if (!isTable(value)) {
    context.problems.push({ line: context.line(at), message: `${tableName(at)} must be a table with ${PROFILE_KEYS.join(', ')}` });
    return undefined;
  }
  unknownKeys(value, PROFILE_KEYS, at, context);
  const description = value['description'];
  if (description !== undefined && typeof description !== 'string')
    context.problems.push({ line: context.line([...at, 'description']), message: `${tableName(at)} description must be a string` });
  const servers = value['servers'];
  if (!isTable(servers) || Object.keys(servers).length === 0) {
    context.problems.push({
      line: context.line(servers === undefined ? at : [...at, 'servers']),
      message: `${tableName(at)} names no server: add a [profiles.${name}.servers.<id>] table for each server it shows`,
    });
    return undefined;
  }
  const entries = Object.entries(servers).map(([id, item]) => readProfileServer(id, item, [...at, 'servers', id], context));
  if (context.problems.length > start) return undefined;
  return { name, ...(typeof description === 'string' ? { description } : {}), servers: entries.filter((entry) => entry !== undefined) };
};

/**
 * `[profiles]`, in file order. A server may be disabled and still named: the profile then shows
 * nothing of it until it is enabled. Problems go to `context.problems`.
 */
export const readProfiles = (value: unknown, context: ProfileContext): ProfileConfig[] => {
  if (value === undefined) return [];
  if (!isTable(value)) {
    context.problems.push({
      line: context.line(['profiles']),
      message: 'profiles must be tables: [profiles.<name>] with [profiles.<name>.servers.<id>]',
    });
    return [];
  }
  return Object.entries(value).flatMap(([name, item]) => readProfile(name, item, context) ?? []);
};

/**
 * The profile `--profile <name>` names: undefined for none or `default` (everything); an unknown name
 * is a `CONFIG_INVALID` error listing the profiles there are.
 */
export const resolveProfile = (
  config: { readonly profiles: readonly ProfileConfig[] },
  name: string | undefined,
): ProfileConfig | undefined => {
  if (name === undefined || name === DEFAULT_PROFILE) return undefined;
  const profile = config.profiles.find((item) => item.name === name);
  if (profile !== undefined) return profile;
  const names = config.profiles.map((item) => item.name);
  const hint = didYouMean(closestNames(name, names, 1), 'aside');
  throw new PromptyardError(
    'CONFIG_INVALID',
    names.length === 0
      ? `Unknown profile "${name}": the config has no [profiles.<name>] tables; add one, or leave out --profile to serve everything`
      : `Unknown profile "${name}"${hint}; profiles: ${formatList([DEFAULT_PROFILE, ...names], 'and')}`,
  );
};
