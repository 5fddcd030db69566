import { basename, extname, join, resolve } from 'node:path';
import { sha256Hex } from '@promptyard/core';
import type { Cluster, Logger } from '@promptyard/core';
import { stateFolder } from '../state-folder.js';
import { createClusterPinStore } from './cluster-pin-store.js';
import { createFilePinStore } from './file-pin-store.js';
import { createPinBook } from './pin-book.js';
import type { PinStore } from './pin-store.js';
import type { PinBook } from './pin-types.js';

/** Where the pins live: a file (one gateway), or the cluster's Redis (`[cluster]`, replicas that must agree). */
export type PinLocation = { readonly file: string } | { readonly cluster: Cluster };

/**
 * The default pin file of the gateway config `configFile`:
 * `<config folder>/promptyard/pins/<config name>-<16 hex of the SHA-256 of its absolute path>.json`,
 * beside the OAuth tokens, one per config so two gateways on one machine keep their own pins.
 */
export const pinFileFor = (configFile: string, env: Readonly<Record<string, string | undefined>> = process.env): string => {
  const absolute = resolve(configFile);
  return join(stateFolder(env), 'promptyard', 'pins', `${basename(absolute, extname(absolute))}-${sha256Hex(absolute).slice(0, 16)}.json`);
};

export const openPinStore = async (location: PinLocation, logger: Logger): Promise<PinStore> =>
  'file' in location ? createFilePinStore(location.file, logger) : createClusterPinStore(location.cluster);

/** The pins at `location`, read once now: rejects (naming the file or store and what to do) when they cannot be read. */
export const openPinBook = async (location: PinLocation, logger: Logger): Promise<PinBook> => {
  const store = await openPinStore(location, logger);
  try {
    return await createPinBook(store, logger);
  } catch (error) {
    await store.close();
    throw error;
  }
};
