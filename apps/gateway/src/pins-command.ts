import { closestNames, describeError, didYouMean, isPromptyardError, PromptyardError } from '@promptyard/core';
import type { Logger } from '@promptyard/core';
import { errorPrefix } from '@promptyard/host';
import { userInfo } from 'node:os';
import {
  approvePins,
  fieldsSeen,
  matchesTarget,
  openPinStore,
  pinFileFor,
  pinState,
  rejectionOf,
  rejectPins,
  resetPins,
} from '@promptyard/router';
import type { PinEntry, PinLocation, PinRecord, PinStore, PinTarget } from '@promptyard/router';
import type { GatewayConfig } from './config/gateway-config.js';
import { pinAddress, pinDiff, rejectionNote } from './pin-diff.js';

/**
 * `promptyard-gateway pins list | diff [server[/name]] | approve [server[/name]] | reject [server[/name]] | reset [server]`:
 * what a person does with the definition pins a gateway keeps (the pin file of its config, or the
 * cluster's Redis with `[cluster]`). A running gateway hears the change and serves what was approved;
 * what was rejected stays unapproved, marked with who rejected it (the console shows it too).
 */

const ACTIONS = ['list', 'diff', 'approve', 'reject', 'reset'] as const;
type PinsAction = (typeof ACTIONS)[number];

export interface PinsCommandOptions {
  /** The words after `pins`: the action and, for some, a target. */
  readonly args: readonly string[];
  readonly config: GatewayConfig;
  /** The config's path: its pin file is `pinFileFor(configFile)` unless `pinsFile` says otherwise. */
  readonly configFile: string;
  readonly pinsFile?: string | undefined;
  readonly logger: Logger;
  readonly out: (text: string) => void;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Who runs `pins reject` (recorded with the rejection): the user name of this process unless given. */
  readonly user?: string | undefined;
}

const refuse = (message: string): PromptyardError => new PromptyardError('INVALID_ARGUMENT', message);

const parseArgs = (args: readonly string[]): { action: PinsAction; target: PinTarget } => {
  const [action, target, ...rest] = args;
  if (!ACTIONS.includes(action as PinsAction)) {
    // A mistyped action (`pins lst`) is answered with the closest one.
    const close = action === undefined ? '' : didYouMean(closestNames(action, ACTIONS, 1), 'aside');
    throw refuse(
      `pins needs one of ${ACTIONS.join(', ')}${action === undefined ? '' : `, not "${action}"`}${close}: promptyard-gateway pins list | diff [server[/name]] | approve [server[/name]] | reject [server[/name]] | reset [server]`,
    );
  }
  if (rest.length > 0) throw refuse(`pins ${action} takes at most one server or server/name, got ${args.slice(1).join(' ')}`);
  if (target === undefined || target === '') return { action: action as PinsAction, target: {} };
  const slash = target.indexOf('/');
  const server = slash === -1 ? target : target.slice(0, slash);
  const name = slash === -1 ? undefined : target.slice(slash + 1);
  if (action === 'reset' && name !== undefined)
    throw refuse(`pins reset forgets a whole server's pins: promptyard-gateway pins reset ${server}`);
  return { action: action as PinsAction, target: { server, ...(name === undefined || name === '' ? {} : { name }) } };
};

/** The target's server and name must be known: a typo is an error with the close names, never "nothing to do". */
const checkTarget = (target: PinTarget, entries: readonly PinEntry[], config: GatewayConfig, configFile: string): void => {
  const { server, name } = target;
  if (server === undefined) return;
  const servers = new Set([...config.servers.map((backend) => backend.id), ...entries.map((entry) => entry.server)]);
  if (!servers.has(server)) throw refuse(`no server "${server}" in ${configFile} or its pins.${didYouMean(closestNames(server, servers))}`);
  if (name === undefined) return;
  const names = new Set(entries.filter((entry) => entry.server === server).map((entry) => entry.name));
  if (!names.has(name))
    throw refuse(
      `server "${server}" has no pinned tool or prompt "${name}".${didYouMean(closestNames(name, names).map((close) => `${server}/${close}`))}`,
    );
};

const fieldsOf = (entry: PinEntry): string[] => (entry.pending === undefined ? [] : fieldsSeen(entry.pinned, entry.pending));

const table = (rows: readonly (readonly string[])[]): string => {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
};

const list = (entries: readonly PinEntry[], where: string): string => {
  if (entries.length === 0) return `No pins in ${where}: a gateway pins each server's definitions when it first sees them.\n`;
  const rows = entries.map((entry) => {
    const state = pinState(entry);
    return [
      entry.server,
      entry.kind,
      entry.name,
      `${state === 'changed' ? `changed (${fieldsOf(entry).join(', ')})` : state}${rejectionNote(entry)}`,
    ];
  });
  const count = (state: string): number => entries.filter((entry) => pinState(entry) === state).length;
  const rejected = entries.filter((entry) => rejectionOf(entry) !== undefined).length;
  return `${table([['server', 'kind', 'name', 'state'], ...rows])}\n${count('pinned')} pinned, ${count('changed')} changed, ${count('new')} new${rejected === 0 ? '' : `; ${rejected} rejected`} (${where})\n`;
};

/** The user name this process runs as, for `pins reject` (a container without a passwd entry has none: then $USER, or "unknown"). */
const localUser = (env: Readonly<Record<string, string | undefined>>): string => {
  try {
    return userInfo().username;
  } catch {
    return env['USER'] ?? env['USERNAME'] ?? 'unknown';
  }
};

const reject = async (target: PinTarget, store: PinStore, subject: string): Promise<string> => {
  const rejected = await rejectPins(store, target, { subject });
  if (rejected.length === 0) return 'Nothing to reject: every definition seen is the approved one.\n';
  const lines = rejected.map((entry) => `rejected ${pinAddress(entry)} (${entry.kind}, ${pinState(entry)}: ${fieldsOf(entry).join(', ')})`);
  return `${lines.join('\n')}\nThey stay unapproved (quarantined under pinning = "enforce", served with a warning under "warn"), marked rejected by ${subject}, until approved or changed again.\n`;
};

const run = async (action: PinsAction, target: PinTarget, options: PinsCommandOptions, store: PinStore): Promise<void> => {
  const { out } = options;
  const entries = (await store.load()).filter((entry) => matchesTarget(entry, target));
  const pending = entries.filter((entry): entry is PinEntry & { readonly pending: PinRecord } => entry.pending !== undefined);
  if (action === 'list') return out(list(entries, store.where));
  if (action === 'diff')
    return out(pending.length === 0 ? 'Nothing is pending: every definition seen is the approved one.\n' : pending.map(pinDiff).join('\n'));
  if (action === 'approve') {
    const approved = await approvePins(store, target);
    if (approved.length === 0) return out('Nothing to approve: every definition seen is the approved one.\n');
    const lines = approved.map(
      (entry) => `approved ${pinAddress(entry)} (${entry.kind}, ${pinState(entry)}: ${fieldsOf(entry).join(', ')})`,
    );
    return out(`${lines.join('\n')}\nA running gateway serves them as soon as it notices, and tells its clients their lists changed.\n`);
  }
  if (action === 'reject') return out(await reject(target, store, options.user ?? localUser(options.env ?? process.env)));
  if (entries.length === 0) return out(`No pins to forget in ${store.where}.\n`);
  out(`${entries.map((entry) => `forgetting ${pinAddress(entry)} (${entry.kind}, ${pinState(entry)})`).join('\n')}\n`);
  const forgotten = await resetPins(store, target.server);
  out(`Forgot ${forgotten.length} pins; the gateway pins what it sees next as approved (trust on first use).\n`);
};

/** Opens the store the gateway of `config` uses: its cluster's Redis, or its pin file. */
const openStore = async (options: PinsCommandOptions): Promise<{ store: PinStore; close: () => Promise<void> }> => {
  const { config, logger } = options;
  if (config.cluster === undefined) {
    const location: PinLocation = { file: options.pinsFile ?? pinFileFor(options.configFile, options.env) };
    const store = await openPinStore(location, logger);
    return { store, close: () => store.close() };
  }
  // Loaded only with [cluster]: the Redis client is not needed otherwise.
  const { createRedisCluster, waitForCluster } = await import('@promptyard/cluster');
  const cluster = createRedisCluster({ url: config.cluster.redisUrl, keyPrefix: config.cluster.keyPrefix, logger });
  if ((await waitForCluster(cluster, 5000)) !== 'ready') {
    await cluster.close();
    throw new PromptyardError(
      'BACKEND_UNAVAILABLE',
      `cannot reach the cluster Redis of ${options.configFile} ([cluster] redis_url), where the pins are: check that Redis runs and the URL`,
    );
  }
  const store = await openPinStore({ cluster }, logger);
  return {
    store,
    close: async () => {
      await store.close();
      await cluster.close();
    },
  };
};

/**
 * The store's entries; `pins reset` of every server also forgets pins that cannot be read (the way
 * out their error names), and then resolves `undefined`: nothing more to do.
 */
const loadOrForget = async (
  action: PinsAction,
  target: PinTarget,
  store: PinStore,
  out: (text: string) => void,
): Promise<PinEntry[] | undefined> => {
  try {
    return await store.load();
  } catch (error) {
    if (action !== 'reset' || target.server !== undefined || !isPromptyardError(error) || error.code !== 'CONFIG_INVALID') throw error;
    await store.clear();
    out(
      `The pins in ${store.where} could not be read; forgot them all: the gateway pins what it sees next as approved (trust on first use).\n`,
    );
    return undefined;
  }
};

/** Runs `pins …`; resolves with the exit code: 0 done, 1 an error (written on `err`). */
export const runPinsCommand = async (options: PinsCommandOptions, err: (text: string) => void): Promise<number> => {
  let opened: { store: PinStore; close: () => Promise<void> } | undefined;
  try {
    const { action, target } = parseArgs(options.args);
    opened = await openStore(options);
    const entries = await loadOrForget(action, target, opened.store, options.out);
    if (entries === undefined) return 0;
    checkTarget(target, entries, options.config, options.configFile);
    await run(action, target, options, opened.store);
    return 0;
  } catch (error) {
    err(`${errorPrefix('promptyard-gateway')} ${describeError(error)}\n`);
    return 1;
  } finally {
    await opened?.close();
  }
};
