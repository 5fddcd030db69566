/**
 * Replicas agreeing on each source's commit: the cluster's shared map `git-library` holds, under a
 * source's id, the ref and the commit the cluster serves for it. The first node to resolve a ref
 * writes it (only if absent); a node that finds the branch moved writes the new commit with a time
 * to switch at, a moment ahead; every node fetches it meanwhile and moves at that time, so that the
 * replicas behind one balancer change version together, not each when its fetch ends.
 */
import type { Cluster, SharedMap } from '@promptyard/core';

const sharedMapName = 'git-library';

interface SharedCommit {
  readonly ref: string;
  readonly commit: string;
  /** When every node moves to it (epoch ms); absent: at once. */
  readonly at?: number;
}

const parse = (value: string | undefined): SharedCommit | undefined => {
  if (value === undefined) return undefined;
  try {
    const parsed = JSON.parse(value) as Partial<SharedCommit>;
    if (typeof parsed.ref !== 'string' || typeof parsed.commit !== 'string') return undefined;
    return { ref: parsed.ref, commit: parsed.commit, ...(typeof parsed.at === 'number' ? { at: parsed.at } : {}) };
  } catch {
    return undefined;
  }
};

export interface SharedCommits {
  /** The commit the cluster serves for source `id` at `ref`; undefined when none (or written for another ref). */
  read(id: string, ref: string): Promise<string | undefined>;
  /** The same, with the time the nodes switch to it (epoch ms; 0: at once). */
  readSwitch(id: string, ref: string): Promise<{ readonly commit: string; readonly at: number } | undefined>;
  /**
   * Writes `commit` for `id` at `ref` (to switch to `at`, epoch ms, when given); with `first`, only
   * when no node wrote this ref yet. Resolves with the commit the cluster serves now (another node's
   * when it wrote first).
   */
  write(id: string, ref: string, commit: string, first: boolean, at?: number): Promise<string>;
  onChange(listener: (ids: readonly string[]) => void): () => void;
}

export const sharedCommits = (cluster: Cluster): SharedCommits => {
  const map: SharedMap = cluster.sharedMap(sharedMapName);
  const readSwitch = async (id: string, ref: string): Promise<{ readonly commit: string; readonly at: number } | undefined> => {
    const entry = parse((await map.getAll()).get(id));
    return entry?.ref === ref ? { commit: entry.commit, at: entry.at ?? 0 } : undefined;
  };
  const read = async (id: string, ref: string): Promise<string | undefined> => (await readSwitch(id, ref))?.commit;
  return {
    read,
    readSwitch,
    write: async (id, ref, commit, first, at) => {
      const value = JSON.stringify({ ref, commit, ...(at === undefined ? {} : { at }) } satisfies SharedCommit);
      // A value written for another ref (before a config change) does not count as present.
      const present = first ? parse((await map.getAll()).get(id)) : undefined;
      const onlyIfAbsent = first && (present === undefined || present.ref === ref);
      const written = await map.set(new Map([[id, value]]), { onlyIfAbsent });
      if (written.includes(id)) return commit;
      return (await read(id, ref)) ?? commit;
    },
    onChange: (listener) => map.onChange(listener),
  };
};
