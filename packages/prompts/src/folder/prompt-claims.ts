import type { DiagnosticSink, Logger, PromptEntry } from '@promptyard/core';
import type { PromptDelta } from './types.js';

/**
 * Which file serves each prompt name. Two files may claim one name (two libraries with the same
 * name, say): the first by path wins, so a reload gives the same answer as a fresh load. Changes
 * are tracked per name so that a batch of edits becomes one delta.
 */
export interface PromptClaims {
  /** Replaces what one file serves (`entry.origin.file` identifies the file). */
  update(previous: PromptEntry | undefined, next: PromptEntry | undefined): void;
  /** Every served entry, by name. */
  served(): PromptEntry[];
  /** What changed since the last call, for names touched since then. */
  takeDelta(): PromptDelta;
  /** Warns once about each name that more than one file claimed since the last call (a diagnostic per file left out). */
  reportConflicts(logger: Logger, diagnostics: DiagnosticSink): void;
  clear(): void;
  /** Whether `update` records changes for `takeDelta`; a full load turns it off. */
  setTracking(enabled: boolean): void;
}

const fileOf = (entry: PromptEntry): string => entry.origin.file;

/** The claimant with the first file by path. */
const first = (claimants: readonly PromptEntry[]): PromptEntry | undefined => {
  let winner: PromptEntry | undefined;
  for (const entry of claimants) if (winner === undefined || fileOf(entry) < fileOf(winner)) winner = entry;
  return winner;
};

/** One entry per name almost always; a list only while files conflict. */
type ClaimMap = Map<string, PromptEntry | PromptEntry[]>;

const winnerOf = (claims: ClaimMap, name: string): PromptEntry | undefined => {
  const claim = claims.get(name);
  return Array.isArray(claim) ? first(claim) : claim;
};

const removeClaim = (claims: ClaimMap, entry: PromptEntry): void => {
  const claim = claims.get(entry.name);
  if (claim === entry) {
    claims.delete(entry.name);
  } else if (Array.isArray(claim)) {
    const rest = claim.filter((other) => fileOf(other) !== fileOf(entry));
    claims.set(entry.name, rest.length === 1 ? (rest[0] as PromptEntry) : rest);
  }
};

/** Adds a file's claim; true when another file claims the name too. */
const addClaim = (claims: ClaimMap, entry: PromptEntry): boolean => {
  const claim = claims.get(entry.name);
  if (claim === undefined) {
    claims.set(entry.name, entry);
    return false;
  }
  const others = (Array.isArray(claim) ? claim : [claim]).filter((other) => fileOf(other) !== fileOf(entry));
  claims.set(entry.name, others.length === 0 ? entry : [...others, entry]);
  return others.length > 0;
};

/** What the names in `before` serve now that they did not serve then. */
const deltaSince = (claims: ClaimMap, before: ReadonlyMap<string, PromptEntry | undefined>): PromptDelta => {
  const upserted: PromptEntry[] = [];
  const removed: string[] = [];
  for (const [name, previous] of before) {
    const current = winnerOf(claims, name);
    if (current === previous) continue;
    if (current === undefined) removed.push(name);
    else upserted.push(current);
  }
  upserted.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { upserted, removed: removed.sort() };
};

const warnConflict = (claims: ClaimMap, name: string, logger: Logger, diagnostics: DiagnosticSink): void => {
  const claim = claims.get(name);
  if (!Array.isArray(claim)) return;
  const served = first(claim);
  const ignored = claim
    .filter((entry) => entry !== served)
    .map(fileOf)
    .sort();
  logger.warn('duplicate prompt name; serving the first file by path', {
    name,
    file: served === undefined ? undefined : fileOf(served),
    ignored: ignored.join(', '),
  });
  const winner = served === undefined ? undefined : fileOf(served);
  for (const file of ignored)
    diagnostics({
      file,
      severity: 'warning',
      code: 'duplicate-name',
      message: `prompt "${name}" is also defined in ${winner ?? 'another file'}, which is served (the first file by path)`,
    });
};

export const createPromptClaims = (): PromptClaims => {
  // A Map per name would cost more than the entry itself with 10,000 prompts.
  const claims: ClaimMap = new Map();
  // Name → the entry served before the first change of the current batch.
  let before = new Map<string, PromptEntry | undefined>();
  let conflicts = new Set<string>();
  // Off during a full load, where nothing is compared with a previous state.
  let tracking = true;

  const touch = (name: string): void => {
    if (tracking && !before.has(name)) before.set(name, winnerOf(claims, name));
  };

  return {
    update: (previous, next) => {
      if (previous === next) return;
      if (previous !== undefined) {
        touch(previous.name);
        removeClaim(claims, previous);
      }
      if (next !== undefined) {
        touch(next.name);
        if (addClaim(claims, next)) conflicts.add(next.name);
      }
    },
    served: () => {
      const entries: PromptEntry[] = [];
      for (const name of [...claims.keys()].sort()) {
        const entry = winnerOf(claims, name);
        if (entry !== undefined) entries.push(entry);
      }
      return entries;
    },
    takeDelta: () => {
      const delta = deltaSince(claims, before);
      before = new Map();
      return delta;
    },
    reportConflicts: (logger, diagnostics) => {
      for (const name of conflicts) warnConflict(claims, name, logger, diagnostics);
      conflicts = new Set();
    },
    clear: () => {
      claims.clear();
      before = new Map();
      conflicts = new Set();
    },
    setTracking: (enabled) => {
      tracking = enabled;
    },
  };
};
