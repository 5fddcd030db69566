/**
 * Test helpers of `library/`: a bare repository with a working clone that commits and pushes, a
 * recording logger, and an in-memory stand-in for the two members of core's `Cluster` the library
 * uses (`sharedMap`, `claim`); the Redis-backed cluster is exercised by the cluster black-box tests.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createLogger } from '@promptyard/core';
import type { Cluster, LogRecord, Logger, SharedMap } from '@promptyard/core';

import { git as runGit, testEnv } from '../git/test-git.js';

/** What the tests give git (no user or system config): the git/ tests' environment. */
export const gitEnv = testEnv;

const git = async (cwd: string, ...args: string[]): Promise<string> => (await runGit(cwd, ...args)).trim();

export interface TestRepo {
  readonly root: string;
  /** The bare repository (a plain path). */
  readonly bare: string;
  /** Writes `files` (relative → text; undefined deletes), commits them on `main` and pushes; resolves with the commit. */
  commit(files: Readonly<Record<string, string | undefined>>, message?: string): Promise<string>;
  tag(name: string): Promise<void>;
  cleanup(): Promise<void>;
}

export const createTestRepo = async (): Promise<TestRepo> => {
  const root = await mkdtemp(join(tmpdir(), 'promptyard-git-library-'));
  const bare = join(root, 'remote.git');
  const work = join(root, 'work');
  await git(root, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
  await git(root, 'init', '--quiet', '--initial-branch=main', work);
  await git(work, 'remote', 'add', 'origin', bare);
  return {
    root,
    bare,
    commit: async (files, message = 'change') => {
      for (const [file, text] of Object.entries(files)) {
        const target = join(work, file);
        if (text === undefined) await rm(target, { force: true });
        else {
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, text);
        }
      }
      await git(work, 'add', '--all');
      await git(work, 'commit', '--quiet', '-m', message);
      await git(work, 'push', '--quiet', 'origin', 'main');
      return git(work, 'rev-parse', 'HEAD');
    },
    tag: async (name) => {
      await git(work, 'tag', name);
      await git(work, 'push', '--quiet', 'origin', name);
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
};

export const recordingLogger = (): { readonly logger: Logger; readonly records: LogRecord[] } => {
  const logger = createLogger({ level: 'debug', write: () => undefined });
  const records: LogRecord[] = [];
  logger.subscribe((record) => records.push(record));
  return { logger, records };
};

/** A store shared by the nodes of `memoryCluster`. */
export interface MemoryStore {
  readonly maps: Map<string, Map<string, string>>;
  readonly listeners: Map<string, Set<{ readonly node: string; readonly listener: (keys: readonly string[]) => void }>>;
  readonly claims: Map<string, number>;
  /** Every key a claim won, in order (one per key within its TTL). */
  readonly won: string[];
}

export const createMemoryStore = (): MemoryStore => ({ maps: new Map(), listeners: new Map(), claims: new Map(), won: [] });

/**
 * A node of an in-memory cluster following core's `Cluster` contract for `sharedMap` (onlyIfAbsent
 * keeps the first writer; `onChange` tells the other nodes only) and `claim` (one caller per key
 * within its TTL). The other members are absent: the library does not use them.
 */
export const memoryCluster = (store: MemoryStore, nodeId: string): Cluster => {
  const sharedMap = (name: string): SharedMap => {
    const map = store.maps.get(name) ?? new Map<string, string>();
    store.maps.set(name, map);
    const listeners = store.listeners.get(name) ?? new Set();
    store.listeners.set(name, listeners);
    const tell = (keys: readonly string[]): void => {
      if (keys.length === 0) return;
      for (const entry of listeners) if (entry.node !== nodeId) queueMicrotask(() => entry.listener(keys));
    };
    return {
      getAll: async () => new Map(map),
      set: async (entries, options) => {
        const written = [...entries].filter(([key]) => !(options?.onlyIfAbsent === true && map.has(key)));
        for (const [key, value] of written) map.set(key, value);
        tell(written.map(([key]) => key));
        return written.map(([key]) => key);
      },
      delete: async (keys) => {
        for (const key of keys) map.delete(key);
        tell(keys);
      },
      onChange: (listener) => {
        const entry = { node: nodeId, listener };
        listeners.add(entry);
        return () => listeners.delete(entry);
      },
    };
  };
  const claim = async (key: string, ttlMs: number): Promise<boolean> => {
    const until = store.claims.get(key);
    if (until !== undefined && until > Date.now()) return false;
    store.claims.set(key, Date.now() + ttlMs);
    store.won.push(key);
    return true;
  };
  return { nodeId, sharedMap, claim } as unknown as Cluster;
};
