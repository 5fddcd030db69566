/**
 * Definition pinning: a SHA-256 of each tool's and prompt's canonical definition, recorded on first
 * sight, so that a definition that changes later (through `list_changed`, an upgrade, a restart) is
 * seen, and under `pinning = "enforce"` quarantined until a person approves it.
 */
import type { PinningMode } from '../surface/surface-types.js';
import type { Sliced } from '../slices.js';

export type PinKind = 'tool' | 'prompt';

/** One definition as seen: its digest, the definition itself (for `pins diff`) and when. */
export interface PinRecord {
  /** `canonicalDigest` of the definition's pinned fields. */
  readonly digest: string;
  /** The pinned fields: name, title, description, inputSchema, outputSchema, annotations (tools); name, title, description, arguments (prompts). */
  readonly definition: Readonly<Record<string, unknown>>;
  /** ISO time it was first seen in this form. */
  readonly at: string;
}

/**
 * A person's "no" to a pending form (the console's Reject, `pins reject`): it stays unapproved, and
 * the console and `pins list` say who said so. It holds for that form only: approving the entry, or
 * a newer pending form, clears it.
 */
export interface PinRejection {
  /** The digest of the pending form rejected. */
  readonly digest: string;
  /** Who rejected it: the console's signed-in identity, or the local user running `pins reject`. */
  readonly subject: string;
  /** ISO time of the rejection. */
  readonly at: string;
}

/** What the store holds of one server's tool or prompt. */
export interface PinEntry {
  readonly server: string;
  readonly kind: PinKind;
  /** The name on its server (before overrides and prefix). */
  readonly name: string;
  /** The approved definition; absent for an item first seen on a server already pinned (new, not approved). */
  readonly pinned?: PinRecord | undefined;
  /** The definition seen since, differing from `pinned`, not approved yet. */
  readonly pending?: PinRecord | undefined;
  /** The pending form was rejected (absent in pin files written before rejections were kept). */
  readonly rejected?: PinRejection | undefined;
}

/** One definition held back, or served with a warning: what changed and how to approve it. */
export interface PinChange {
  readonly server: string;
  readonly kind: PinKind;
  readonly name: string;
  /** `changed`: differs from the pinned one; `new`: appeared on a server whose definitions were already pinned. */
  readonly change: 'changed' | 'new';
  /** The fields that differ (`description`, `inputSchema` …); every field for a new one. */
  readonly fields: readonly string[];
  /** The whole sentence a refused call or a warning shows, with the `pins approve` command. */
  readonly message: string;
}

/** One server's list, reviewed against its pins. */
export interface PinReview<T> {
  /** What may be served (under `warn` and `off`, everything; under `enforce`, all but the quarantined). */
  readonly served: readonly T[];
  /** By the name on its server: held back under `enforce`. */
  readonly quarantined: ReadonlyMap<string, PinChange>;
  /** Served under `warn` although they changed. */
  readonly warned: ReadonlyMap<string, PinChange>;
}

/**
 * The pins of every server, held in memory and kept in a store (a file, or Redis with `[cluster]`).
 * `review` is synchronous and cheap on unchanged lists (digests cached per definition object); what
 * it learns (first sight, a pending change) is written to the store in the background.
 */
export interface PinBook {
  review<T extends { readonly name: string }>(server: string, mode: PinningMode, kind: PinKind, items: readonly T[]): PinReview<T>;
  /** `review` as sliced work (`slices.ts`): a long list reviewed without holding the event loop. */
  reviewing<T extends { readonly name: string }>(
    server: string,
    mode: PinningMode,
    kind: PinKind,
    items: readonly T[],
  ): Sliced<PinReview<T>>;
  /** Every entry, for `status`, the terminal UI and `/health`. */
  entries(): readonly PinEntry[];
  /** The store changed outside this process (`pins approve`, another replica): lists must be reviewed again. */
  onChange(listener: () => void): () => void;
  close(): Promise<void>;
}
