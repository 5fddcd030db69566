/**
 * Replicas agreeing on each source's commit: the cluster's shared map `git-library` holds, under a
 * source's id, the ref and the commit the cluster serves for it. The first node to resolve a ref
 * writes it (only if absent); a node that finds the branch moved writes the new commit; every node
 * moves to what the map says.
 */
import type { Cluster, SharedMap } from '@promptyard/core';

const sharedMapName = 'git-library';

interface SharedCommit {
  readonly ref: string;
  readonly commit: string;
}

const parse = (value: string | undefined): SharedCommit | undefined => {
  if (value === undefined) return undefined;
  try {
    const parsed = JSON.parse(value) as Partial<SharedCommit>;
    return typeof parsed.ref === 'string' && typeof parsed.commit === 'string' ? { ref: parsed.ref, commit: parsed.commit } : undefined;
  } catch {
    return undefined;
  }
};

export interface SharedCommits {
  /** The commit the cluster serves for source `id` at `ref`; undefined when none (or written for another ref). */
  read(id: string, ref: string): Promise<string | undefined>;
  /**
   * Writes `commit` for `id` at `ref`; with `first`, only when no node wrote this ref yet. Resolves
   * with the commit the cluster serves now (another node's when it wrote first).
   */
  write(id: string, ref: string, commit: string, first: boolean): Promise<string>;
  onChange(listener: (ids: readonly string[]) => void): () => void;
}

export const sharedCommits = (cluster: Cluster): SharedCommits => {
  const map: SharedMap = cluster.sharedMap(sharedMapName);
  const read = async (id: string, ref: string): Promise<string | undefined> => {
    const entry = parse((await map.getAll()).get(id));
    return entry?.ref === ref ? entry.commit : undefined;
  };
  return {
    read,
    write: async (id, ref, commit, first) => {
      const value = JSON.stringify({ ref, commit } satisfies SharedCommit);
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
