import { canonicalDigest, canonicalJson } from '@promptyard/core';
import type { PinKind } from './pin-types.js';

/**
 * What a pin covers of one definition as its server sent it (before overrides and prefix), and its
 * digest, computed once per definition object: a list reviewed again unchanged (same objects) costs
 * a WeakMap lookup per item, no hashing.
 */

/** The fields a pin covers, per kind: what a model reads and what a call is checked against. */
const PINNED_FIELDS: Readonly<Record<PinKind, readonly string[]>> = {
  tool: ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'],
  prompt: ['name', 'title', 'description', 'arguments'],
};

export interface PinnedForm {
  /** The pinned fields the definition has (absent ones left out). */
  readonly definition: Readonly<Record<string, unknown>>;
  /** `canonicalDigest` of `definition`. */
  readonly digest: string;
}

const cache: Record<PinKind, WeakMap<object, PinnedForm>> = { tool: new WeakMap(), prompt: new WeakMap() };

/** The pinned fields of `item` and their digest, cached per object. */
export const pinnedForm = (kind: PinKind, item: object): PinnedForm => {
  const cached = cache[kind].get(item);
  if (cached !== undefined) return cached;
  const source = item as Readonly<Record<string, unknown>>;
  const definition: Record<string, unknown> = {};
  for (const field of PINNED_FIELDS[kind]) if (source[field] !== undefined) definition[field] = source[field];
  const form = { definition, digest: canonicalDigest(definition) };
  cache[kind].set(item, form);
  return form;
};

/** The top-level fields whose canonical JSON differs between two definitions (absent on one side counts), in the definitions' field order. */
export const changedFields = (before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): string[] =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (field) => canonicalJson(before[field]) !== canonicalJson(after[field]),
  );

/** What differs in a definition seen against its pin: every field of one never pinned (new). */
export const fieldsSeen = (
  pinned: { readonly definition: Readonly<Record<string, unknown>> } | undefined,
  seen: { readonly definition: Readonly<Record<string, unknown>> },
): string[] => (pinned === undefined ? Object.keys(seen.definition) : changedFields(pinned.definition, seen.definition));
