import { extname } from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import { PromptyardError, closestNames, describeTomlError, didYouMean, locateKey } from '@promptyard/core';
import type { Problem, RawServer } from './server-entry.js';
import { isTable } from '@promptyard/core';
import { jsonErrorLine, locateJsonPath, stripJsonComments } from './jsonc.js';
import { locateTomlPath } from './toml-lines.js';

// Reads server entries out of gateway.toml or a Claude / Cursor / VS Code JSON file, with their lines.

/** Keys people bring from other formats, and what they mean here. */
const SERVER_KEY_HINTS: Readonly<Record<string, string>> = {
  type: 'transport',
  disabled: 'enabled',
  timeout_ms: 'timeout',
  envFile: 'env',
};

export const detectFormat = (text: string, file: string | undefined): 'toml' | 'json' => {
  const extension = file === undefined ? '' : extname(file).toLowerCase();
  if (extension === '.json' || extension === '.jsonc') return 'json';
  if (extension === '.toml') return 'toml';
  return text.trimStart().startsWith('{') ? 'json' : 'toml';
};

export interface ServerSource {
  readonly format: 'toml' | 'claude' | 'vscode';
  readonly document: Record<string, unknown>;
  readonly servers: readonly RawServer[];
  /** `[profiles]` as written (gateway.toml only), checked by `readProfiles`. */
  readonly profiles?: unknown;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The first `[name]` or `[name.…]` header line; 0 when there is none. */
const tomlSectionLine = (text: string, name: string): number => {
  const header = new RegExp(`^\\s*\\[\\[?\\s*"?${escapeRegExp(name)}"?\\s*[.\\]]`);
  const index = text.split(/\r?\n/).findIndex((line) => header.test(line));
  return index + 1;
};

/** What gateway.toml may contain: the top-level sections besides [servers], and the keys of a server. */
export interface TomlKeys {
  readonly sections: readonly string[];
  readonly serverKeys: readonly string[];
}

export const readToml = (text: string, file: string, problems: Problem[], keys: TomlKeys): ServerSource => {
  let document: Record<string, unknown>;
  try {
    document = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError) {
      throw new PromptyardError('CONFIG_INVALID', `Invalid configuration:\n  ${describeTomlError(error, file)}`, { cause: error });
    }
    throw error;
  }
  const { servers: table, profiles, ...rest } = document;
  const sections = [...keys.sections, 'servers', 'profiles'];
  for (const key of Object.keys(rest)) {
    if (keys.sections.includes(key)) continue;
    delete rest[key];
    const hint = didYouMean(closestNames(key, sections, 1), 'aside', ([section]) => `[${section}]`);
    problems.push({
      line: tomlSectionLine(text, key) || locateKey(text, '', key),
      message: `unknown ${isTable(document[key]) ? `section [${key}]` : `top-level key "${key}"`}${hint}; allowed sections: ${sections.map((section) => `[${section}]`).join(', ')}`,
    });
  }
  const servers: RawServer[] = [];
  if (table !== undefined && !isTable(table)) {
    problems.push({ line: locateKey(text, '', 'servers'), message: 'servers must be tables: [servers.<id>] with command or url' });
  } else {
    for (const [key, fields] of Object.entries(table ?? {})) {
      const section = `servers.${key}`;
      const line = (path: readonly string[] = []): number => {
        if (path.length > 0) {
          const exact = locateTomlPath(text, ['servers', key, ...path]);
          if (exact > 0) return exact;
        }
        const [first, ...more] = path;
        if (first !== undefined && more.length > 0) {
          const nested =
            locateKey(text, `${section}.${first}`, more.join('.')) ||
            locateKey(text, section, path.join('.')) ||
            locateKey(text, `${section}.${first}`);
          if (nested > 0) return nested;
        }
        return (first === undefined ? 0 : locateKey(text, section, first)) || locateKey(text, section) || locateKey(text, 'servers', key);
      };
      if (!isTable(fields)) {
        problems.push({ line: line(), message: `server "${key}" must be a table: [servers.${key}] with command or url` });
        continue;
      }
      for (const name of Object.keys(fields)) {
        if (keys.serverKeys.includes(name)) continue;
        const known = SERVER_KEY_HINTS[name];
        const hint = didYouMean(known === undefined ? closestNames(name, keys.serverKeys, 1) : [known], 'aside');
        problems.push({
          line: line([name]),
          message: `server "${key}": unknown key "${name}"${hint}; allowed keys: ${keys.serverKeys.join(', ')}`,
        });
      }
      servers.push({ key, fields, label: (name) => name, line });
    }
  }
  return { format: 'toml', document: rest, servers, ...(profiles === undefined ? {} : { profiles }) };
};

export const readJson = (text: string, file: string): ServerSource => {
  const stripped = stripJsonComments(text);
  let document: unknown;
  try {
    document = JSON.parse(stripped);
  } catch (error) {
    const line = jsonErrorLine(stripped, error as Error);
    throw new PromptyardError(
      'CONFIG_INVALID',
      `Invalid configuration:\n  ${line > 0 ? `${file}:${line}` : file}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const missing = `expected an object with "mcpServers" (Claude Desktop, Cursor, Claude Code) or "servers" (VS Code mcp.json): add one, or write a gateway.toml`;
  if (!isTable(document)) throw new PromptyardError('CONFIG_INVALID', `Invalid configuration:\n  ${file}: ${missing}`);
  let format: ServerSource['format'];
  let root: string[];
  if (document['mcpServers'] !== undefined) [format, root] = ['claude', ['mcpServers']];
  else if (document['servers'] !== undefined) [format, root] = ['vscode', ['servers']];
  else if (isTable(document['mcp']) && document['mcp']['servers'] !== undefined) [format, root] = ['vscode', ['mcp', 'servers']];
  else throw new PromptyardError('CONFIG_INVALID', `Invalid configuration:\n  ${file}: ${missing}`);
  let table: unknown = document;
  for (const key of root) table = isTable(table) ? table[key] : undefined;
  if (!isTable(table)) {
    const line = locateJsonPath(text, root);
    throw new PromptyardError(
      'CONFIG_INVALID',
      `Invalid configuration:\n  ${line > 0 ? `${file}:${line}` : file}: "${root.join('.')}" must be an object of server names to settings`,
    );
  }
  const servers: RawServer[] = [];
  for (const [key, entry] of Object.entries(table)) {
    const line = (path: readonly string[] = []): number => locateJsonPath(text, [...root, key, ...path]);
    const raw = isTable(entry) ? entry : {};
    const transportKey = raw['type'] !== undefined || raw['transport'] === undefined ? 'type' : 'transport';
    const fields: Record<string, unknown> = {
      command: raw['command'],
      args: raw['args'],
      env: raw['env'],
      cwd: raw['cwd'],
      url: raw['url'],
      headers: raw['headers'],
      transport: raw[transportKey],
      // Promptyard's own keys, for a JSON file only the gateway reads.
      inherit_env: raw['inherit_env'],
      protocol: raw['protocol'],
      auth: raw['auth'],
      oauth: raw['oauth'],
      pinning: raw['pinning'],
      overrides: raw['overrides'],
      ...(format === 'claude' && raw['disabled'] !== undefined
        ? { enabled: typeof raw['disabled'] === 'boolean' ? !raw['disabled'] : raw['disabled'] }
        : {}),
      ...(format === 'vscode' ? { envFile: raw['envFile'] } : {}),
    };
    const names: Readonly<Record<string, string>> = { transport: transportKey, enabled: 'disabled' };
    servers.push({
      key,
      fields,
      ...(isTable(entry) ? {} : { malformed: true }),
      label: (name) => names[name] ?? name,
      line: (path = []) => line(path.map((part) => names[part] ?? part)) || line(),
    });
  }
  return { format, document: {}, servers };
};
